import Foundation
import Testing
import Diagnostics
import MessageCache
import TestSupport
import XMPPTransport
@testable import Messaging

/// Other users' presence through the chat engine, against a scripted link (ChatEngine+Presence.swift):
/// what is heard is told once per change, a followed private dialog asks its peer's last
/// activity, and a reconnect asks again about everyone who was online.
@Suite("Chat engine: presence", .serialized)
struct ChatEnginePresenceTests {
    typealias F = ListenerFixture

    static func presences(_ events: [ChatEngineEvent]) -> [(Int, PeerPresence)] {
        events.compactMap { if case .presence(let user, let presence) = $0 { (user, presence) } else { nil } }
    }

    static func hear(_ f: F, _ events: [ChatEvent]) {
        f.link.incoming = events
        f.engine.pump()
    }

    @Test func eachChangeIsToldOnceAndOurOwnResourcesAreNot() throws {
        let f = try F(known: [F.withBob], settings: ChatEngine.Settings())
        try f.engine.connect(joining: [F.withBob])
        f.engine.presenceBook.now = { 10_000 }
        Self.hear(f, [
            .presence(UserPresence(userID: 2, resource: "web", isAvailable: true)),
            .presence(UserPresence(userID: 2, resource: "phone", isAvailable: true)),
            .presence(UserPresence(userID: 1, resource: "other", isAvailable: true)),
            .presence(UserPresence(userID: 2, resource: "web", isAvailable: false)),
        ])
        #expect(Self.presences(f.heard.events).map(\.0) == [2])
        #expect(Self.presences(f.heard.events).map(\.1) == [.online], "still online on the phone")
        Self.hear(f, [.presence(UserPresence(userID: 2, resource: "phone", isAvailable: false))])
        #expect(Self.presences(f.heard.events).map(\.1) == [.online, .lastSeen(at: 10_000)])
    }

    @Test func followingAPrivateDialogAsksThePeersLastActivityAndTellsTheAnswer() throws {
        let f = try F(known: [F.withBob, F.ops], script: [reply(200, ChatEngineTests.messagePage([]))])
        try f.engine.connect(joining: [F.withBob, F.ops])
        f.engine.presenceBook.now = { 10_000 }
        try f.engine.perform(.follow(dialogID: F.groupID))
        #expect(f.link.lastActivityAsked.isEmpty, "a group asks nothing: its count comes from presence")
        f.transport.script.append(reply(200, ChatEngineTests.messagePage([])))
        try f.engine.perform(.follow(dialogID: F.privateID))
        #expect(f.link.lastActivityAsked == [2])
        Self.hear(f, [.lastActivity(LastActivity(userID: 2, seconds: 300))])
        #expect(Self.presences(f.heard.events).map(\.1) == [.lastSeen(at: 9_700)])
        Self.hear(f, [.lastActivity(LastActivity(userID: 2, seconds: nil, errorCondition: "item-not-found"))])
        #expect(Self.presences(f.heard.events).map(\.1) == [.lastSeen(at: 9_700), .offline])
        Self.hear(f, [.presence(UserPresence(userID: 2, resource: "web", isAvailable: true))])
        #expect(Self.presences(f.heard.events).last?.1 == .online)
        // Known to be online: following again asks nothing, and a stale answer does not undo it.
        f.transport.script.append(reply(200, ChatEngineTests.messagePage([])))
        try f.engine.perform(.follow(dialogID: F.privateID))
        #expect(f.link.lastActivityAsked == [2])
        Self.hear(f, [.lastActivity(LastActivity(userID: 2, seconds: 60))])
        #expect(Self.presences(f.heard.events).last?.1 == .online && Self.presences(f.heard.events).count == 3)
    }

    @Test func aReconnectAsksAgainAboutEveryoneWhoWasOnline() throws {
        // Hearing no dialogs keeps REST out of it: presence comes all the same.
        var settings = ChatEngine.Settings()
        settings.reconnect = ChatEngineTests.quick(.view)
        let f = try F(known: [F.withBob, F.ops], settings: settings)
        try f.engine.connect(joining: [F.withBob, F.ops])
        f.engine.presenceBook.now = { 10_000 }
        Self.hear(f, [.presence(UserPresence(userID: 2, resource: "web", isAvailable: true)),
                      .presence(UserPresence(userID: 3, resource: "web", isAvailable: true))])
        _ = f.engine.core.handle(.followed(dialogID: F.groupID, at: .now))  // the chat view's: what comes after a reconnect is for it
        f.link.cut()
        f.engine.pump()
        #expect(f.link.connectCount == 2)
        #expect(f.link.lastActivityAsked == [2, 3])
        // Bob left while we were away; Carol is still there.
        Self.hear(f, [.lastActivity(LastActivity(userID: 2, seconds: 40)), .lastActivity(LastActivity(userID: 3, seconds: 0))])
        #expect(Self.presences(f.heard.events).map(\.1) == [.online, .online, .lastSeen(at: 9_960)])
    }
}
