import Foundation
import Testing
import Diagnostics
import MessageCache
import QuickBloxAPI
import TestSupport
import XMPPTransport
@testable import Messaging
import ChatIdentifiers

/// The chat engine in process, against a scripted chat link and scripted REST answers
/// (docs/architecture.md, "The chat engine"): its reconnect loop, its pages of history,
/// its read marks, the first connect of each policy.
@Suite("Chat engine", .serialized)
struct ChatEngineTests {
    typealias F = ListenerFixture

    static func stored(_ id: String, text: String, at date: Int, sender: Int = 2, dialogID: DialogID = F.privateID) -> String {
        #"{"_id":"\#(id)","chat_dialog_id":"\#(dialogID)","message":"\#(text)","sender_id":\#(sender),"recipient_id":1,"date_sent":\#(date),"markable":1}"#
    }
    static func messagePage(_ items: [String]) -> String { #"{"skip":0,"limit":100,"items":[\#(items.joined(separator: ","))]}"# }

    /// A policy that waits next to nothing between attempts.
    static func quick(_ policy: ReconnectPolicy) -> ReconnectPolicy {
        var quick = policy
        quick.backoff = ReconnectBackoff(base: 0.01, cap: 0.02, stableAfter: 30)
        return quick
    }

    static func connectionChanges(_ events: [ChatEngineEvent]) -> [ChatConnectionChange] {
        events.compactMap { if case .connection(let change) = $0 { change } else { nil } }
    }

    // MARK: reconnecting

    /// A flush of three messages (left by a process that died) is cut after two are written:
    /// the engine connects again, asks the server's history which arrived (the first did),
    /// and sends the rest again under their own ids; each is delivered once.
    @Test func aConnectionCutMidFlushIsMadeAgainAndEachMessageArrivesOnce() throws {
        var settings = ChatEngine.Settings()
        settings.reconnect = Self.quick(.stream)
        let now = Int(Date().timeIntervalSince1970)
        let ids = ["6b0db884edb3b3d9cddf1501", "6b0db884edb3b3d9cddf1502", "6b0db884edb3b3d9cddf1503"]
        let f = try F(known: [F.withBob], script: [
            reply(200, Self.messagePage([])),
            reply(200, Self.messagePage([Self.stored(ids[0], text: "one", at: now, sender: 1)])),
        ], settings: settings)
        for (id, text) in zip(ids, ["one", "two", "three"]) {
            try f.service.cache.enqueue(dialogID: F.privateID, text: text, clientMessageID: id, createdAt: now, owner: nil, attachmentsJSON: "")
        }
        f.link.cutAfterWrites = 2

        let report = f.engine.flushOutbox()
        #expect(report.failure == nil && report.alreadyThere == 0)
        #expect(f.engine.finish() == nil)

        #expect(f.link.connectCount == 2)
        #expect(f.link.written.map(\.id.rawValue) == [ids[0], ids[1], ids[1], ids[2]], "the first not again: the server had it")
        #expect(f.engine.deliveredCount == 3 && f.engine.undeliveredCount == 0)
        #expect(try f.service.pendingOutbox().isEmpty)
        #expect(try ids.allSatisfy { try f.service.cache.message(id: $0) != nil }, "each in history")
        let changes = Self.connectionChanges(f.heard.events)
        #expect(changes.contains { if case .lost = $0 { true } else { false } })
        #expect(changes.last == .connected(following: 0, again: true))
    }

    /// The stream's bounds: with every attempt refused, the engine gives up after its
    /// attempts and what was cut off waits in the outbox, with the reason.
    @Test func aStreamGivesUpAfterItsAttemptsAndLeavesTheRestInTheOutbox() throws {
        var settings = ChatEngine.Settings()
        settings.reconnect = Self.quick(.stream)
        let f = try F(known: [F.withBob], settings: settings)
        try f.engine.connect(joining: [F.withBob])
        f.link.acknowledges = false
        try f.engine.perform(.send(["first", "second"], dialogID: F.privateID))
        f.link.connects = Array(repeating: Failure(.temporary, "chat is down"), count: 10)
        f.link.cut()

        let failure = f.engine.finish()
        #expect(failure?.message.contains("gave up reconnecting after 4 attempts") == true, "\(String(describing: failure))")
        #expect(f.link.connectCount == 5, "the first connect and four attempts")
        #expect(f.engine.undeliveredCount == 2)
        #expect(try f.service.pendingOutbox().map(\.text) == ["first", "second"])
        #expect(try f.service.pendingOutbox().allSatisfy { $0.claimedBy == nil }, "released for a later flush")
        #expect(Self.connectionChanges(f.heard.events).contains { if case .gaveUp = $0 { true } else { false } })
    }

    /// `listen`'s first connect must succeed; the chat view's is retried.
    @Test func aFirstConnectThatFailsEndsListenButTheViewTriesAgain() throws {
        var listen = ChatEngine.Settings()
        listen.dialogs = .all
        listen.reconnect = Self.quick(.forever)
        let l = try F(script: [reply(200, F.page([]))], settings: listen)
        l.link.connects = [Failure(.temporary, "chat is down")]
        #expect(throws: Failure(.temporary, "chat is down")) { try l.engine.run(until: .now + .seconds(5)) }

        var view = listen
        view.reconnect = Self.quick(.view)
        let v = try F(script: [reply(200, F.page([])), reply(200, F.page([]))], settings: view)
        v.link.connects = [Failure(.temporary, "chat is down")]
        try v.engine.run(until: .now + .milliseconds(300))
        let changes = Self.connectionChanges(v.heard.events)
        #expect(changes.first == .connecting)
        #expect(changes.contains { if case .retrying(_, _, let failure?) = $0 { failure.message == "chat is down" } else { false } })
        #expect(changes.contains(.connected(following: 0, again: false)))
        #expect(v.link.connectCount == 2)
    }

    /// `listen --count 1`: the run ends once one message from others was handed on, told
    /// with its sender's name first.
    @Test func runEndsAtTheHandLimitAndTellsTheSendersName() throws {
        var settings = ChatEngine.Settings()
        settings.dialogs = .all
        settings.reconnect = Self.quick(.forever)
        settings.handLimit = 1
        let users = #"{"current_page":1,"per_page":100,"total_entries":1,"items":[{"user":{"id":2,"login":"bob","full_name":"Bob B"}}]}"#
        let f = try F(script: [reply(200, F.page([F.dialogJSON(F.privateID, type: 3, occupants: [1, 2])])), reply(200, users), reply(200, users)],
                      settings: settings)
        var hello = F.chat(from: "2-1@localhost/web", dialogID: F.privateID, body: "hello")
        hello.markable = true
        f.link.incoming = [.message(hello),
                           .message(F.chat(from: "2-1@localhost/web", id: "6b0db884edb3b3d9cddf1331", dialogID: F.privateID, body: "past the count"))]
        try f.engine.run(until: .now + .seconds(5))
        #expect(f.messages.map(\.text) == ["hello"])
        let heardAt = try #require(f.heard.events.firstIndex { if case .heard = $0 { true } else { false } })
        let namedAt = f.heard.events.firstIndex { if case .names(let names) = $0 { names[2] != nil } else { false } }
        #expect(namedAt.map { $0 < heardAt } ?? false, "the name comes before the message: \(f.heard.events)")
        #expect(f.link.markersSent.map(\.kind) == [.received])
        #expect(try f.cached("6b0db884edb3b3d9cddf1331") == nil, "past the count: not cached, left on the server")
    }

    /// `listen --timeout`: messages read in the turn the deadline passes during are still
    /// cached, told and marked received before the run ends (the server has them as delivered).
    @Test func whatTheLastTurnReadIsHandedOnPastTheDeadline() throws {
        var settings = ChatEngine.Settings()
        settings.dialogs = .all
        settings.reconnect = Self.quick(.forever)
        let users = #"{"current_page":1,"per_page":100,"total_entries":1,"items":[{"user":{"id":2,"login":"bob","full_name":"Bob B"}}]}"#
        let f = try F(script: [reply(200, F.page([F.dialogJSON(F.privateID, type: 3, occupants: [1, 2])])), reply(200, users), reply(200, users)],
                      settings: settings)
        f.link.eventsComeLate = true
        var first = F.chat(from: "2-1@localhost/web", dialogID: F.privateID, body: "just in time")
        var second = F.chat(from: "2-1@localhost/web", id: "6b0db884edb3b3d9cddf1331", dialogID: F.privateID, body: "and this")
        first.markable = true
        second.markable = true
        f.link.incoming = [.message(first), .message(second)]
        let deadline = ContinuousClock.now + .milliseconds(50)
        try f.engine.run(until: deadline)
        #expect(ContinuousClock.now >= deadline)
        #expect(f.messages.map(\.text) == ["just in time", "and this"])
        #expect(try f.cached("6b0db884edb3b3d9cddf1331")?.text == "and this")
        #expect(f.link.markersSent.map(\.kind) == [.received, .received])
    }

    /// A sender the server does not know (a deleted account) is asked about once, not at
    /// every message: each ask would hold the engine's thread for a round trip.
    @Test func anUnknownSenderIsAskedAboutOnce() throws {
        let gone = F.dialog(F.privateID, type: .private, occupants: [1, 9])
        let none = #"{"current_page":1,"per_page":100,"total_entries":0,"items":[]}"#
        let f = try F(known: [gone], script: [reply(200, none), reply(200, none)])
        try f.engine.connect(joining: [])
        f.hear(F.chat(from: "9-1@localhost/web", dialogID: F.privateID, body: "one"))
        f.hear(F.chat(from: "9-1@localhost/web", id: "6b0db884edb3b3d9cddf1331", dialogID: F.privateID, body: "two"))
        #expect(f.messages.map(\.text) == ["one", "two"])
        #expect(f.transport.requests.filter { $0.url.contains("/users.json") }.count == 1, "\(f.transport.paths)")
    }

    // MARK: history

    /// Older messages asked for before a message whose second holds three: the server is
    /// asked for that second and a page before it, and the page told is what comes before
    /// the cursor, same-second messages included.
    @Test func aPageOfOlderMessagesStraddlesTheCursorsSecond() throws {
        let t = 1_700_000_100
        let same = ["6b0db884edb3b3d9cddf1601", "6b0db884edb3b3d9cddf1602", "6b0db884edb3b3d9cddf1603"]
        let older = ["6b0db884edb3b3d9cddf1501", "6b0db884edb3b3d9cddf1502"]
        let server = older.enumerated().map { Self.stored($1, text: "older \($0)", at: t - 1) }
            + same.enumerated().map { Self.stored($1, text: "same \($0)", at: t) }
        var settings = ChatEngine.Settings()
        settings.pageSize = 50
        let f = try F(known: [F.withBob], script: [reply(200, Self.messagePage(server))], settings: settings)
        _ = try f.service.cache.upsertMessagesReportingNew(same.enumerated().map { n, id in
            CachedMessage(sentID: id, dialogID: F.privateID, sender: 2, recipient: 1, text: "same \(n)", dateSent: t)
        })

        f.engine.fetchOlder(F.privateID, before: MessagePosition(dateSent: t, id: same[2]))
        let url = try #require(f.transport.requests.first?.url)
        #expect(url.contains("limit=53"), "three of that second and a page: \(url)")
        #expect(url.contains("date_sent%5Blt%5D=\(t + 1)") || url.contains("date_sent[lt]=\(t + 1)"), "\(url)")
        let loaded = f.heard.events.compactMap { event -> [CachedMessage]? in
            if case .olderLoaded(let dialogID, let before, let page, let exhausted) = event, dialogID == F.privateID,
               before.id == same[2], !exhausted { page } else { nil }
        }
        #expect(loaded.first?.map(\.text) == ["older 0", "older 1", "same 0", "same 1"])
    }

    // MARK: read marks

    /// Messages seen in the view: `displayed` to their sender at once; their read mark over
    /// REST fails once, is told once, and goes again after the retry interval.
    @Test func aReadMarkThatFailsOnceIsToldOnceAndSentAgain() throws {
        var settings = ChatEngine.Settings()
        settings.readMarkRetrySeconds = 0.05
        let f = try F(known: [F.withBob], script: [reply(503, #"{"errors":["busy"]}"#), reply(200, "")], settings: settings)
        let ids = ["6b0db884edb3b3d9cddf1701", "6b0db884edb3b3d9cddf1702"]
        _ = try f.service.cache.upsertMessagesReportingNew(ids.map {
            CachedMessage(sentID: $0, dialogID: F.privateID, sender: 2, recipient: 1, text: "seen", dateSent: F.now)
        })
        try f.engine.connect(joining: [])

        try f.engine.perform(.displayed(ids: ids, dialogID: F.privateID))
        #expect(f.transport.requests.count == 1)
        #expect(f.notices.filter { $0.contains("could not mark 2 messages read") }.count == 1, "\(f.notices)")
        f.engine.settle()
        #expect(f.transport.requests.count == 1, "not again before the retry interval")
        #expect(f.link.markersSent.map(\.kind) == [.displayed, .displayed], "the markers went at once")

        Thread.sleep(forTimeInterval: 0.06)
        f.engine.settle()
        #expect(f.transport.paths == ["PUT Message/\(ids.joined(separator: ",")).json", "PUT Message/\(ids.joined(separator: ",")).json"])
        #expect(try ids.allSatisfy { try f.service.cache.message(id: $0)?.readIDs.contains(1) == true })
        f.engine.settle()
        #expect(f.transport.requests.count == 2, "done: nothing more to send")
        #expect(f.notices.count == 1)
    }
}

extension ChatEngineTests {
    /// What we sent over REST from another device reaches no stanza here;
    /// the followed dialog asks the server for it, from a second before the newest it saw.
    @Test func aFollowedDialogHearsOurRESTSendsFromElsewhere() throws {
        let t = 1_700_000_100
        var settings = ChatEngine.Settings()
        settings.followedRefreshSeconds = 0
        let mine = "6b0db884edb3b3d9cddf1701"
        let f = try F(known: [F.withBob], script: [reply(200, Self.messagePage([Self.stored(mine, text: "from my phone", at: t, sender: 1)])),
                                                   reply(200, Self.messagePage([]))], settings: settings)
        _ = try f.service.cache.upsertMessagesReportingNew([
            CachedMessage(sentID: "6b0db884edb3b3d9cddf1700", dialogID: F.privateID, sender: 2, recipient: 1, text: "earlier", dateSent: t - 10)])
        try f.engine.connect(joining: [])
        _ = f.engine.core.handle(.followed(dialogID: F.privateID, at: .now))
        f.engine.refreshFollowedIfDue()
        let told = f.heard.events.compactMap { event -> [CachedMessage]? in
            if case .caughtUp(F.privateID, let messages) = event { messages } else { nil }
        }
        #expect(told.flatMap { $0 }.map(\.text) == ["from my phone"])
        let asks = f.transport.requests.filter { $0.url.contains("Message.json") }.map(\.url)
        #expect(asks.first?.contains("date_sent%5Bgt%5D=\(t - 11)") == true || asks.first?.contains("date_sent[gt]=\(t - 11)") == true, "\(asks)")
        f.engine.refreshFollowedIfDue()
        let again = f.transport.requests.filter { $0.url.contains("Message.json") }.map(\.url)
        #expect(again.count == 2 && (again[1].contains("%5Bgt%5D=\(t - 1)") || again[1].contains("[gt]=\(t - 1)")), "\(again)")
        #expect(f.heard.events.filter { if case .caughtUp = $0 { true } else { false } }.count == 1, "nothing new: nothing told")
    }
}

extension ChatEngineTests {
    /// A followed dialog quiet for a minute is asked every 15 s, not every 2; one the view
    /// left is not asked at all; a run of failed asks is told once.
    @Test func aQuietOrLeftDialogIsAskedLessOrNotAtAll() throws {
        var settings = ChatEngine.Settings()
        settings.followedRefreshSeconds = 2
        let failing = reply(503, #"{"errors":["busy"]}"#)
        let f = try F(known: [F.withBob], script: [failing, failing, failing], settings: settings)
        try f.engine.connect(joining: [])
        _ = f.engine.core.handle(.followed(dialogID: F.privateID, at: .now))
        _ = f.engine.core.handle(.followedWatermark(1_700_000_000))
        let asks = { f.transport.requests.filter { $0.url.contains("Message.json") }.count }

        _ = f.engine.core.handle(.followedAsked(at: .now - .seconds(3)))
        f.engine.refreshFollowedIfDue()
        #expect(asks() == 1, "news a moment ago: asked after 2 s")
        _ = f.engine.core.handle(.news(dialogIDs: [F.privateID], at: .now - .seconds(61)))
        _ = f.engine.core.handle(.followedAsked(at: .now - .seconds(3)))
        f.engine.refreshFollowedIfDue()
        #expect(asks() == 1, "quiet for a minute: not after 3 s")
        _ = f.engine.core.handle(.followedAsked(at: .now - .seconds(16)))
        f.engine.refreshFollowedIfDue()
        #expect(asks() == 2, "but after 15")
        let notices = f.heard.events.filter { if case .notice = $0 { true } else { false } }
        #expect(notices.count == 1, "two failures in a row, told once: \(notices)")

        try f.engine.perform(.unfollow)
        _ = f.engine.core.handle(.followedAsked(at: .now - .seconds(60)))
        f.engine.refreshFollowedIfDue()
        #expect(asks() == 2, "the view left the dialog: nothing asked")
    }
}

extension ChatEngineTests {
    /// A stream's reconnect fills the gap from where the last fill ended, by the server's
    /// dates: its own lines, thousands in a long `send --lines`, are not fetched again at every
    /// reconnect (the soak saw a sender's memory grow with each one), and only what others
    /// said is kept and handed on.
    @Test func aSecondReconnectAsksOnlyAfterWhatTheFirstFillSaw() throws {
        let t = Int(Date().timeIntervalSince1970)
        var settings = ChatEngine.Settings()
        settings.reconnect = Self.quick(.stream)
        let f = try F(known: [F.withBob], script: [
            reply(200, Self.messagePage([Self.stored("6b0db884edb3b3d9cddf1801", text: "mine", at: t + 5, sender: 1),
                                         Self.stored("6b0db884edb3b3d9cddf1802", text: "from bob", at: t + 6),
                                         Self.stored("6b0db884edb3b3d9cddf1803", text: "mine again", at: t + 7, sender: 1)])),
            reply(200, Self.messagePage([])),
        ], settings: settings)
        try f.engine.connect(joining: [F.withBob])
        f.link.cut()
        f.engine.pump()
        f.link.cut()
        f.engine.pump()
        #expect(f.link.connectCount == 3)
        let asks = f.transport.requests.filter { $0.url.contains("Message.json") }.map(\.url)
        #expect(asks.count == 2, "\(asks)")
        #expect(asks.last.map { $0.contains("date_sent%5Bgt%5D=\(t + 6)") || $0.contains("date_sent[gt]=\(t + 6)") } == true,
                "from a second before the newest the first fill saw: \(asks)")
        #expect(f.messages.map(\.text) == ["from bob"])
        #expect(try f.cached("6b0db884edb3b3d9cddf1801")?.text == "mine", "what was fetched is cached")
    }
}

extension ChatEngineTests {
    static let notificationsOn = #"{"notifications":{"enabled":1}}"#

    /// `dialogs mute --for` ends while the chat view is open: the engine unmutes the dialog on
    /// the server then and tells the dialog list again, so its messages ring from that moment,
    /// not from the view's next start. A failure is told once and tried again.
    @Test func aMuteThatEndsWhileTheViewIsOpenIsUndoneThen() throws {
        var settings = ChatEngine.Settings()
        settings.reportsDialogList = true
        let f = try F(known: [F.withBob], script: [reply(503, #"{"errors":["busy"]}"#), reply(200, Self.notificationsOn)], settings: settings)
        let now = Int(Date().timeIntervalSince1970)
        try f.service.cache.setDialogMuted(id: F.privateID, until: now + 3600)
        f.engine.endMutesIfDue()
        #expect(f.transport.requests.isEmpty, "a mute still running is left alone")

        try f.service.cache.setDialogMuted(id: F.privateID, until: now - 1)
        f.engine.endMutesIfDue(at: .now + .seconds(15))  // at the next read of the cache

        #expect(f.heard.notices.count == 1 && f.heard.notices.first?.hasPrefix("a mute that ended is not undone on the server yet") == true,
                "\(f.heard.notices)")
        f.engine.endMutesIfDue(at: .now + .seconds(30))
        #expect(f.heard.notices.count == 1, "told once")
        let puts = f.transport.requests.filter { $0.method == .put }.map(\.url)
        #expect(puts.count == 2 && puts.allSatisfy { $0.hasSuffix("/chat/Dialog/\(F.privateID)/notifications.json") }, "\(puts)")
        #expect(try f.service.cache.dialog(id: F.privateID)?.muted == false)
        let told = f.heard.events.compactMap { event -> [CachedDialog]? in if case .dialogs(let all, _) = event { all } else { nil } }
        #expect(told.last?.first { $0.id == F.privateID }?.muted == false, "the list is told again, unmuted")
        #expect(f.engine.dialogs[F.privateID]?.muted == false)
    }
}
