import Testing
import XMPPTransport

/// Room joins, IQ replies and keep-alive as `ChatSessionState` decides them: events
/// in, actions out, no sockets.
@Suite("ChatSessionState: rooms, IQ replies, keep-alive")
struct SessionDecisionTests {
    static let room = ChatJID(parsing: "77_dialog@muc.chat.example")!

    static func connected() -> ChatSessionState {
        var s = ChatSessionState()
        _ = s.handle(.connectRequested)
        _ = s.handle(.sessionEstablished)
        return s
    }

    static func presence(_ nick: String, self isSelf: Bool = true, unavailable: Bool = false, error: String? = nil) -> RoomPresence {
        RoomPresence(room: room, nick: nick, isSelf: isSelf, isUnavailable: unavailable, errorCondition: error)
    }

    // MARK: rooms

    @Test func joinWaitsForOurOwnPresenceThenIsJoined() {
        var s = Self.connected()
        #expect(s.handle(.joinRequested(room: Self.room, nick: "1001")) == .sendJoinPresence(room: Self.room, nick: "1001"))
        #expect(s.roomJoin(room: Self.room, nick: "1001") == .waiting)
        #expect(s.joinedRooms.isEmpty)
        #expect(s.handle(.roomPresence(Self.presence("1002", self: false))) == ChatSessionState.Action.none)
        #expect(s.roomJoin(room: Self.room, nick: "1001") == .waiting, "another occupant's presence is not our answer")
        #expect(s.handle(.roomPresence(Self.presence("1001"))) == ChatSessionState.Action.none)
        #expect(s.roomJoin(room: Self.room, nick: "1001") == .joined)
        #expect(s.joinedRooms == [Self.room])
        #expect(s.handle(.joinRequested(room: Self.room, nick: "1001")) == ChatSessionState.Action.none, "already joined")
    }

    @Test func refusedJoinFailsWithTheConditionAndIsForgottenWhenAbandoned() {
        var s = Self.connected()
        _ = s.handle(.joinRequested(room: Self.room, nick: "1001"))
        _ = s.handle(.roomPresence(Self.presence("1001", self: false, error: "registration-required")))
        #expect(s.roomJoin(room: Self.room, nick: "1001") == .failed("registration-required"))
        _ = s.handle(.joinAbandoned(room: Self.room, nick: "1001"))
        #expect(s.roomJoin(room: Self.room, nick: "1001") == nil)
        #expect(s.handle(.joinRequested(room: Self.room, nick: "1001")) == .sendJoinPresence(room: Self.room, nick: "1001"),
                "a later attempt sends again")
    }

    @Test func anErrorAfterJoiningDoesNotUndoTheJoin() {
        var s = Self.connected()
        _ = s.handle(.joinRequested(room: Self.room, nick: "1001"))
        _ = s.handle(.roomPresence(Self.presence("1001")))
        _ = s.handle(.roomPresence(Self.presence("1001", self: false, error: "not-acceptable")))
        _ = s.handle(.joinAbandoned(room: Self.room, nick: "1001"))
        #expect(s.roomJoin(room: Self.room, nick: "1001") == .joined)
    }

    @Test func roomsMatchWhateverCaseTheServerUses() {
        var s = Self.connected()
        let shouted = ChatJID(parsing: "77_DIALOG@MUC.chat.example/old-nick")!
        #expect(s.handle(.joinRequested(room: shouted, nick: "1001")) == .sendJoinPresence(room: shouted.bare, nick: "1001"))
        _ = s.handle(.roomPresence(Self.presence("1001")))
        #expect(s.roomJoin(room: shouted, nick: "1001") == .joined)
    }

    @Test func presenceFromARoomNeverJoinedChangesNothing() {
        var s = Self.connected()
        let before = s
        #expect(s.handle(.roomPresence(Self.presence("1001"))) == ChatSessionState.Action.none)
        #expect(s == before)
    }

    @Test func leavingForgetsTheJoinAndOurUnavailablePresenceToo() {
        var s = Self.connected()
        for nick in ["1001", "1002"] {
            _ = s.handle(.joinRequested(room: Self.room, nick: nick))
            _ = s.handle(.roomPresence(Self.presence(nick)))
        }
        #expect(s.nicks(in: Self.room) == ["1001", "1002"])
        #expect(s.handle(.leaveRequested(room: Self.room, nick: "1001")) == .sendLeavePresence(room: Self.room, nick: "1001"))
        #expect(s.nicks(in: Self.room) == ["1002"])
        _ = s.handle(.roomPresence(Self.presence("1002", unavailable: true)))  // kicked, or the room closed
        #expect(s.roomJoin(room: Self.room, nick: "1002") == nil)
        #expect(s.joinedRooms.isEmpty)
    }

    @Test func noJoinWithoutASessionAndANewSessionStartsWithoutRooms() {
        var offline = ChatSessionState()
        #expect(offline.handle(.joinRequested(room: Self.room, nick: "1001")) == ChatSessionState.Action.none)
        var s = Self.connected()
        _ = s.handle(.joinRequested(room: Self.room, nick: "1001"))
        _ = s.handle(.roomPresence(Self.presence("1001")))
        _ = s.handle(.streamClosed(failure: nil))
        #expect(s.joinedRooms == [Self.room], "still listed after a loss, until the next connect")
        _ = s.handle(.connectRequested)
        #expect(s.joinedRooms.isEmpty)
    }

    // MARK: IQ replies

    @Test func ourPingIsAnsweredByAResultOrAnError() throws {
        var s = Self.connected()
        guard case .sendPing(let first) = s.handle(.pingRequested), case .sendPing(let second) = s.handle(.pingRequested) else {
            Issue.record("a connected session sends pings"); return
        }
        #expect(first != second)
        #expect(!s.isAnswered(ping: first))
        #expect(s.handle(.iqReceived(type: "result", id: first, from: "chat.example", isPing: false)) == ChatSessionState.Action.none)
        #expect(s.isAnswered(ping: first))
        #expect(!s.isAnswered(ping: second))
        _ = s.handle(.iqReceived(type: "error", id: second, from: "chat.example", isPing: false))
        #expect(s.isAnswered(ping: second), "feature-not-implemented still proves the round trip")
        _ = s.handle(.pingFinished(id: first))
        #expect(!s.isAnswered(ping: first))
    }

    @Test func aReplyToAnUnknownIDIsIgnored() {
        var s = Self.connected()
        _ = s.handle(.pingRequested)
        let before = s
        #expect(s.handle(.iqReceived(type: "result", id: "someone-elses-7", from: nil, isPing: false)) == ChatSessionState.Action.none)
        #expect(s == before)
    }

    @Test func theServersPingIsAnsweredToItsSender() {
        var s = Self.connected()
        #expect(s.handle(.iqReceived(type: "get", id: "s2c1", from: "chat.example", isPing: true)) == .answerPing(id: "s2c1", to: "chat.example"))
        #expect(s.handle(.iqReceived(type: "get", id: "s2c2", from: nil, isPing: true)) == .answerPing(id: "s2c2", to: nil))
        #expect(s.handle(.iqReceived(type: "get", id: "v1", from: "chat.example", isPing: false)) == ChatSessionState.Action.none)
        #expect(s.handle(.iqReceived(type: "set", id: "p1", from: "chat.example", isPing: true)) == ChatSessionState.Action.none)
    }

    @Test(arguments: ["result", "error"])
    func aBarrierReplyAcknowledgesWhatItCoversOnce(type: String) {
        var s = Self.connected()
        guard case .sendPing(let id) = s.handle(.barrierRequested) else { Issue.record("no barrier ping"); return }
        #expect(id.contains("barrier"))
        #expect(s.handle(.barrierQueued(id: id, sequence: 7)) == ChatSessionState.Action.none)
        #expect(s.handle(.iqReceived(type: type, id: id, from: "chat.example", isPing: false)) == .acknowledge(through: 7))
        #expect(s.handle(.iqReceived(type: type, id: id, from: "chat.example", isPing: false)) == ChatSessionState.Action.none)
    }

    @Test func noPingsWithoutASession() {
        var s = ChatSessionState()
        #expect(s.handle(.pingRequested) == ChatSessionState.Action.none)
        #expect(s.handle(.barrierRequested) == ChatSessionState.Action.none)
    }

    // MARK: keep-alive

    @Test func silenceBringsAPingThenDeathAfterTheTimeout() {
        var s = Self.connected()
        _ = s.handle(.keepAliveStarted(interval: 60, timeout: 20, now: 0))
        #expect(s.handle(.tick(now: 59)) == ChatSessionState.Action.none)
        guard case .sendPing(let id) = s.handle(.tick(now: 60)) else { Issue.record("no keep-alive ping"); return }
        #expect(id.contains("keepalive"))
        #expect(s.handle(.tick(now: 70)) == ChatSessionState.Action.none, "one ping per silence")
        #expect(s.handle(.tick(now: 80)) == .abortSilentConnection(timeout: 20))
        #expect(s.phase == .disconnected)
        #expect(s.handle(.tick(now: 200)) == ChatSessionState.Action.none)
    }

    @Test func anythingHeardResetsTheSilence() {
        var s = Self.connected()
        _ = s.handle(.keepAliveStarted(interval: 60, timeout: 20, now: 0))
        _ = s.handle(.heard(now: 50))
        #expect(s.handle(.tick(now: 100)) == ChatSessionState.Action.none, "only 50 s of silence")
        guard case .sendPing = s.handle(.tick(now: 110)) else { Issue.record("no ping after 60 s of silence"); return }
        _ = s.handle(.heard(now: 115))  // the pong, or any other stanza
        #expect(s.handle(.tick(now: 130)) == ChatSessionState.Action.none, "the ping was answered: not dead")
        #expect(s.phase == .connected)
        guard case .sendPing = s.handle(.tick(now: 175)) else { Issue.record("the next silence pings again"); return }
    }

    @Test func keepAliveRunsOnlyWhileConnected() {
        var never = Self.connected()
        _ = never.handle(.keepAliveStarted(interval: 0, timeout: 20, now: 0))
        #expect(never.handle(.tick(now: 10_000)) == ChatSessionState.Action.none, "interval 0 never pings")

        var notYet = ChatSessionState()
        _ = notYet.handle(.keepAliveStarted(interval: 60, timeout: 20, now: 0))
        #expect(notYet.handle(.tick(now: 1000)) == ChatSessionState.Action.none)

        var closing = Self.connected()
        _ = closing.handle(.keepAliveStarted(interval: 60, timeout: 20, now: 0))
        #expect(closing.handle(.disconnectRequested) == .closeStream)
        #expect(closing.handle(.tick(now: 1000)) == ChatSessionState.Action.none)

        var lost = Self.connected()
        _ = lost.handle(.keepAliveStarted(interval: 60, timeout: 20, now: 0))
        _ = lost.handle(.streamClosed(failure: nil))
        _ = lost.handle(.connectRequested)
        _ = lost.handle(.sessionEstablished)
        #expect(lost.handle(.tick(now: 1000)) == ChatSessionState.Action.none, "a new session starts its own keep-alive")
    }
}
