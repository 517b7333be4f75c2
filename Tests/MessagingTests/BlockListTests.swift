import Foundation
import Testing
import Diagnostics
import MessageCache
import XMPPTransport
@testable import Messaging
import ChatIdentifiers

/// Blocking over a scripted link (docs/protocol.md §7, "Privacy lists"): the list read as the
/// SDKs read it (names, then the list), changed keeping every rule it is not about, stored, made
/// active and default; a request without an answer ends within its timeout; the engine reads the
/// list again when another session changes it; a private message refused by the other person's
/// list leaves the outbox and says who blocks us, while other bounces are as they were.
@Suite struct BlockListTests {
    /// The user's privacy lists as a server keeps them, answering each request as the sandbox does.
    final class PrivacyServer {
        var lists: [String: PrivacyList] = [:]
        var order: [String] = []
        var defaultName: String?

        func answer(_ request: PrivacyQuery.Request, id: String) -> PrivacyAnswer {
            switch request {
            case .names:
                return .names(id: id, lists: order, active: nil, default: defaultName)
            case .list(let name):
                guard let list = lists[name] else { return .refused(id: id, condition: "item-not-found") }
                return .list(id: id, list)
            case .store(let list):
                if lists[list.name] == nil { order.append(list.name) }
                lists[list.name] = list
                return .done(id: id)
            case .delete(let name):
                guard lists[name] != nil else { return .refused(id: id, condition: "item-not-found") }
                guard defaultName != name else { return .refused(id: id, condition: "conflict") }
                lists[name] = nil
                order.removeAll { $0 == name }
                return .done(id: id)
            case .active(let name), .default(let name):
                if let name, lists[name] == nil { return .refused(id: id, condition: "item-not-found") }
                if case .default = request { defaultName = name }
                return .done(id: id)
            }
        }
    }

    static let bob = ChatJID.user(2, appID: 1, domain: "localhost")
    static let carol = ChatJID.user(3, appID: 1, domain: "localhost")

    /// A link to `server`, and the exchange run over it as `block`, `unblock` and `blocked` run it.
    func run<T>(_ server: PrivacyServer, timeout: Double = 1, _ body: (BlockListExchange.Ask) throws(Failure) -> T) throws -> (T, ScriptedChatLink) {
        let link = ScriptedChatLink(me: 1)
        link.answersPrivacy = server.answer
        let result = try BlockListExchange.run(over: link, timeout: timeout, body)
        return (result, link)
    }

    @Test func blockingWithNoListMakesPublicDefaultAndActive() throws {
        let server = PrivacyServer()
        let (list, link) = try run(server) { ask throws(Failure) in try BlockListExchange.apply(.block, to: Self.bob, label: "@bob", ask) }
        #expect(list.blockedUserIDs == [2])
        #expect(server.lists["public"]?.rules.map(\.match) == [.jid("2-1@localhost"), .jid("muc.localhost/2")])
        #expect(server.lists["public"]?.rules.allSatisfy { !$0.allows && $0.kinds == [.message, .presenceIn, .presenceOut, .iq] } == true)
        #expect(server.defaultName == "public")
        #expect(link.privacyRequests.map(\.asked) == ["names", "store", "default", "active"])
        #expect(!link.isConnected && link.onEvent == nil)
    }

    /// Another app's default list, with an allow rule and a block of its own: the new block comes
    /// first (no earlier rule lets bob through), the rest follow in their order.
    @Test func blockingEditsTheDefaultListAndKeepsItsOtherRules() throws {
        let server = PrivacyServer()
        let foreign = PrivacyList(name: "blockedusers", rules: [
            .init(.jid("2-1@localhost"), allows: true, order: 1, kinds: [.message]),
            .init(.jid("3-1@localhost"), allows: false, order: 5, kinds: []),
            .init(.jid("muc.localhost/3"), allows: false, order: 6, kinds: []),
        ])
        server.lists = ["blockedusers": foreign, "other": PrivacyList(name: "other", rules: [])]
        server.order = ["other", "blockedusers"]
        server.defaultName = "blockedusers"
        let (list, link) = try run(server) { ask throws(Failure) in try BlockListExchange.apply(.block, to: Self.bob, label: "@bob", ask) }
        let stored = try #require(server.lists["blockedusers"])
        #expect(stored.rules.map(\.match) == [.jid("2-1@localhost"), .jid("muc.localhost/2"), .jid("2-1@localhost"),
                                              .jid("3-1@localhost"), .jid("muc.localhost/3")])
        #expect(stored.rules.map(\.order) == [1, 2, 3, 4, 5])
        #expect(stored.rules[2].allows && stored.rules[2].kinds == [.message], "the other app's rule is kept as it was")
        #expect(list.blockedUserIDs == [2, 3])
        #expect(link.privacyRequests.map(\.asked) == ["names", "list", "store", "active"], "the default already: not set again")
    }

    @Test func unblockingTakesOutOnlyThatUsersRules() throws {
        let server = PrivacyServer()
        server.lists = ["public": PrivacyList.blocking([2, 3], name: "public", appID: 1, domain: "localhost")]
        server.order = ["public"]
        server.defaultName = "public"
        let (list, _) = try run(server) { ask throws(Failure) in try BlockListExchange.apply(.unblock, to: Self.bob, label: "@bob", ask) }
        #expect(list.blockedUserIDs == [3])
        #expect(server.lists["public"]?.rules.map(\.match) == [.jid("3-1@localhost"), .jid("muc.localhost/3")])
    }

    /// XEP-0016 keeps no empty list: the last block gone, the list is declined and removed.
    @Test func unblockingTheLastRemovesTheList() throws {
        let server = PrivacyServer()
        server.lists = ["public": PrivacyList.blocking([2], name: "public", appID: 1, domain: "localhost")]
        server.order = ["public"]
        server.defaultName = "public"
        let (list, link) = try run(server) { ask throws(Failure) in try BlockListExchange.apply(.unblock, to: Self.bob, label: "@bob", ask) }
        #expect(list.blockedUserIDs.isEmpty)
        #expect(server.lists.isEmpty && server.defaultName == nil)
        #expect(link.privacyRequests == [.names, .list("public"), .default(nil), .active(nil), .delete("public")])
    }

    @Test(arguments: [BlockListExchange.Change.block, .unblock])
    func aChangeThatChangesNothingIsRefusedAndNothingIsStored(change: BlockListExchange.Change) throws {
        let server = PrivacyServer()
        server.lists = ["public": PrivacyList.blocking([2], name: "public", appID: 1, domain: "localhost")]
        server.order = ["public"]
        server.defaultName = "public"
        let target = change == .block ? Self.bob : Self.carol
        let link = ScriptedChatLink(me: 1)
        link.answersPrivacy = server.answer
        let error = try #require(throws: Failure.self) {
            try BlockListExchange.run(over: link, timeout: 1) { ask throws(Failure) in
                try BlockListExchange.apply(change, to: target, label: "@someone", ask)
            }
        }
        #expect(error.kind == .invalidInput)
        #expect(error.message == (change == .block ? "@someone is blocked already" : "@someone is not blocked"))
        #expect(link.privacyRequests == [.names, .list("public")], "read only")
    }

    @Test func aRequestNobodyAnswersEndsWithinItsTimeout() throws {
        let link = ScriptedChatLink(me: 1)
        let start = ContinuousClock.now
        let error = try #require(throws: Failure.self) {
            try BlockListExchange.run(over: link, timeout: 0.2) { ask throws(Failure) in try BlockListExchange.read(ask) }
        }
        #expect(error.kind == .temporary)
        #expect(error.message.contains("did not answer"))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(!link.isConnected)
    }

    @Test func aRefusalIsSaidWithItsCondition() throws {
        let link = ScriptedChatLink(me: 1)
        link.answersPrivacy = { request, id in
            if case .store = request { return .refused(id: id, condition: "not-allowed") }
            return PrivacyServer().answer(request, id: id)
        }
        let error = try #require(throws: Failure.self) {
            try BlockListExchange.run(over: link, timeout: 1) { ask throws(Failure) in
                try BlockListExchange.apply(.block, to: Self.bob, label: "@bob", ask)
            }
        }
        #expect(error.message == "the chat server refused to store privacy list 'public': not-allowed")
    }

    /// Before a REST send: our list first, then a chat state their list would bounce.
    @Test func theProbeTellsWhoBlocksWhom() throws {
        let server = PrivacyServer()
        let link = ScriptedChatLink(me: 1)
        link.answersPrivacy = server.answer
        #expect(try BlockProbe.run(over: link, peer: 2, dialogID: "6b0db884c4ca891d2141e1c9", timeout: 1) == .clear)
        #expect(!link.isConnected)
        link.incoming = [.messageError(ChatMessageError(id: nil, from: Self.bob, condition: "service-unavailable", type: "cancel", text: nil))]
        #expect(try BlockProbe.run(over: link, peer: 2, dialogID: "6b0db884c4ca891d2141e1c9", timeout: 1) == .theyBlock)
        server.lists = ["public": PrivacyList.blocking([2], name: "public", appID: 1, domain: "localhost")]
        server.order = ["public"]
        server.defaultName = "public"
        #expect(try BlockProbe.run(over: link, peer: 2, dialogID: "6b0db884c4ca891d2141e1c9", timeout: 1) == .youBlock)
    }

    @Test(arguments: [(["public", "x"], "x", "x"), (["x"], nil, "public"), ([], nil, "public"), (["public"], "gone", "public")])
    func theListIsTheDefaultElsePublic(names: [String], defaultName: String?, expected: String) {
        #expect(BlockList.listName(among: names, default: defaultName) == expected)
    }
}

/// The engine's side: `/block` over its own connection, the list read again on another
/// session's push, and a private message refused by the other person's list.
@Suite(.serialized) struct EngineBlockingTests {
    typealias F = ListenerFixture

    static func fixture(tracking: Bool) throws -> (F, BlockListTests.PrivacyServer) {
        var settings = ChatEngine.Settings()
        settings.dialogs = .none
        settings.tracksBlocking = tracking
        let f = try F(known: [F.withBob], settings: settings)
        let server = BlockListTests.PrivacyServer()
        f.link.answersPrivacy = server.answer
        try f.engine.connect(joining: [])
        return (f, server)
    }

    static func blockedEvents(_ f: F) -> [Set<Int>] {
        f.heard.events.compactMap { if case .blocked(let users) = $0 { users } else { nil } }
    }

    @Test func theBlockCommandChangesTheListAndTellsIt() throws {
        let (f, server) = try Self.fixture(tracking: false)
        try f.engine.perform(.block(userID: 2, .block))
        #expect(server.lists["public"]?.blockedUserIDs == [2])
        #expect(Self.blockedEvents(f) == [[2]])
        #expect(f.service.blockedUsers() == [2], "kept for dialogs and the chat view")
        try f.engine.perform(.block(userID: 2, .block))
        #expect(f.notices.last?.contains("is blocked already") == true)
        try f.engine.perform(.block(userID: 2, .unblock))
        #expect(Self.blockedEvents(f) == [[2], []])
    }

    @Test func anotherSessionsChangeIsReadAgain() throws {
        let (f, server) = try Self.fixture(tracking: true)
        f.engine.refreshBlockListIfStale()
        #expect(Self.blockedEvents(f) == [[]], "read once connected")
        server.lists = ["public": PrivacyList.blocking([3], name: "public", appID: 1, domain: "localhost")]
        server.order = ["public"]
        server.defaultName = "public"
        f.link.incoming = [.privacy(.changed("public"))]
        f.link.pump(timeout: 0, sliceMilliseconds: 0, until: nil)
        f.engine.refreshBlockListIfStale()
        #expect(Self.blockedEvents(f) == [[], [3]])
        f.engine.refreshBlockListIfStale()
        #expect(Self.blockedEvents(f).count == 2, "read once per change")
    }

    /// bob's list refuses our message (`service-unavailable`): it leaves the outbox at once, is
    /// told with bob's name, and is the send's failure (exit 5); a group's bounce is not a block.
    @Test func aPrivateMessageBouncedByTheirListLeavesTheOutboxAndNamesTheBlock() throws {
        let (f, _) = try Self.fixture(tracking: false)
        try f.service.cache.upsertUsers([CachedUser(id: 2, login: "bob", fullName: "Bob Q", rawJSON: "{}")])
        f.link.acknowledges = false
        try f.engine.perform(.send(["hi"], dialogID: F.privateID))
        let sent = try #require(f.link.written.last)
        f.link.incoming = [.messageError(ChatMessageError(id: sent.id.rawValue, from: nil, condition: "service-unavailable", type: "cancel", text: nil))]
        f.link.pump(timeout: 0, sliceMilliseconds: 0, until: nil)
        #expect(try f.service.pendingOutbox().isEmpty, "never queued for a retry")
        let refused = f.heard.events.compactMap { if case .refused(_, let id, let failure) = $0 { (id, failure) } else { nil } }
        #expect(refused.map(\.0) == [sent.id.rawValue])
        #expect(refused.first?.1.kind == .blocked)
        #expect(refused.first?.1.message == "Bob Q has blocked you; the message was not sent")
        #expect(f.engine.refusedCount == 1 && f.engine.undeliveredCount == 0)
    }

    @Test func aGroupsServiceUnavailableStaysAsItWas() throws {
        var settings = ChatEngine.Settings()
        settings.dialogs = .none
        let f = try F(known: [F.ops], settings: settings)
        try f.engine.connect(joining: [F.ops])
        f.link.acknowledges = false
        try f.engine.perform(.send(["hi"], dialogID: F.groupID))
        let sent = try #require(f.link.written.last)
        f.link.incoming = [.messageError(ChatMessageError(id: sent.id.rawValue, from: nil, condition: "service-unavailable", type: "cancel", text: nil))]
        f.link.pump(timeout: 0, sliceMilliseconds: 0, until: nil)
        #expect(try f.service.pendingOutbox().map(\.text) == ["hi"], "kept for a later flush, as before")
        #expect(f.engine.undeliveredCount == 1)
        #expect(!f.heard.events.contains { if case .refused = $0 { true } else { false } })
    }
}

extension PrivacyQuery.Request {
    /// What kind of answer it asks for, as a word: `names`, `list`, or the set it is.
    var asked: String {
        switch self {
        case .names: "names"
        case .list: "list"
        case .store: "store"
        case .delete: "delete"
        case .active: "active"
        case .default: "default"
        }
    }
}
