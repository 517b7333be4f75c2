/// MUC rooms (XEP-0045), as QuickBlox group dialogs use them: join as our user
/// id without history, leave. `ChatSessionState` tracks each join; this file sends
/// the presences and waits for the answer.
extension XMPPConnection {
    /// Joins a MUC room as `nick` (QuickBlox: our user id) without history and waits
    /// for our own presence with status 110. An error presence throws code `.roomJoinFailed`
    /// (detail: the condition, e.g. `item-not-found`, then the room).
    package func join(roomJID: ChatJID, nick: String, timeout: Double = 10) throws(XMPPError) {
        guard isConnected else { throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "") }
        guard case .sendJoinPresence(let room, let nick) = state.handle(.joinRequested(room: roomJID, nick: nick)) else {
            return  // already joined
        }
        do {
            _ = try sendStanza(RoomPresence.joinStanza(room: room, nick: nick).xml(), messageID: nil)
        } catch {
            _ = state.handle(.joinAbandoned(room: room, nick: nick))
            throw error
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        runLoop(until: deadline) { $0.state.roomJoin(room: room, nick: nick) != .waiting || !$0.isConnected }
        let outcome = state.roomJoin(room: room, nick: nick)
        if outcome == .joined { return }
        _ = state.handle(.joinAbandoned(room: room, nick: nick))
        if case .failed(let condition)? = outcome {
            throw XMPPError(code: .roomJoinFailed, endpoint: endpointDescription, detail: "\(condition) (room \(room))")
        }
        if !isConnected {
            throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "connection lost while joining \(room)")
        }
        throw XMPPError(kind: .timedOut, endpoint: endpointDescription, detail: "no answer from room \(room) within \(Self.format(timeout)) s")
    }

    /// Leaves a room (`type="unavailable"`) as `nick`, or as every nick this session
    /// joined it with; does not wait for the answer.
    package func leave(roomJID: ChatJID, nick: String? = nil) throws(XMPPError) {
        for nick in nick.map({ [$0] }) ?? state.nicks(in: roomJID) {
            if case .sendLeavePresence(let room, let nick) = state.handle(.leaveRequested(room: roomJID, nick: nick)) {
                _ = try sendStanza(RoomPresence.leaveStanza(room: room, nick: nick).xml(), messageID: nil)
            }
        }
    }

    /// The rooms (bare JIDs) this session has joined.
    package var joinedRooms: [ChatJID] { state.joinedRooms }
}
