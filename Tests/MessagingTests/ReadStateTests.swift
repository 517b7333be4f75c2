import Foundation
import Diagnostics
import Testing
import HTTPTransport
import MessageCache
import QuickBloxAPI
import TestSupport
import XMPPTransport
@testable import Messaging
import ChatIdentifiers

/// Messages as the read-state tests need them.
extension ScriptedService {
    /// A message object as the server sends it.
    static func item(_ n: Int, sender: Int, read: [Int]? = nil, dialog: String = "d1") -> String {
        let readIDs = read ?? [sender]
        return #"{"_id":"\#(id(n))","chat_dialog_id":"\#(dialog)","message":"m\#(n)","sender_id":\#(sender),"date_sent":\#(1_700_000_000 + n),"#
            + #""delivered_ids":\#(readIDs),"read_ids":\#(readIDs),"markable":1}"#
    }

    static func id(_ n: Int) -> String { String(format: "%024x", 0x5e00_0000 + n) }

    func cached(_ n: Int, sender: Int, read: [Int]? = nil) -> CachedMessage {
        let json = try! JSONDecoder().decode(JSONValue.self, from: Data(Self.item(n, sender: sender, read: read).utf8))
        return CacheRecords.message(QBMessage(json: json)!)
    }
}

@Suite struct MarkReadTests {
    @Test func onlyUnreadMessagesFromOthersArePutAHundredAtATime() throws {
        let f = try ScriptedService([reply(200), reply(200)])
        let messages = (0..<150).map { f.cached($0, sender: 2) } + [f.cached(200, sender: 1), f.cached(201, sender: 2, read: [2, 1])]
        try f.service.cache.upsertMessages(messages)
        let marked = try f.service.markRead(messages, dialogID: "d1")
        #expect(marked.map(\.id) == (0..<150).map(ScriptedService.id))
        #expect(f.transport.requests.map(\.method) == [.put, .put])
        #expect(f.transport.requests[0].url.hasPrefix("http://127.0.0.1:9/chat/Message/\(ScriptedService.id(0)),\(ScriptedService.id(1)),"))
        #expect(f.transport.requests[1].url.hasSuffix("\(ScriptedService.id(149)).json"))
        let body = String(decoding: f.transport.requests[0].body, as: UTF8.self)
        #expect(body == #"{"chat_dialog_id":"d1","read":1}"#)
        // The cache now counts me among the readers, so asking again sends nothing.
        #expect(try f.service.cache.message(id: ScriptedService.id(7))?.readIDs == [2, 1])
        let again = try f.service.cache.history(dialogID: "d1", limit: 1000)
        #expect(try f.service.markRead(again, dialogID: "d1").isEmpty)
        #expect(f.transport.requests.count == 2)
    }

    @Test func messagesTheServerNoLongerHasAreSkippedAndOtherRefusalsReported() throws {
        let gone = try ScriptedService([reply(404, #"{"errors":["The resource wasn't found"]}"#)])
        #expect(try gone.service.markRead([gone.cached(1, sender: 2)], dialogID: "d1").isEmpty)
        let forbidden = try ScriptedService([reply(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#)])
        let error = try #require(throws: Failure.self) { try forbidden.service.markRead([forbidden.cached(1, sender: 2)], dialogID: "d1") }
        #expect(error.kind == .invalidInput && error.message.contains("not an occupant"))
        let down = try ScriptedService([reply(503)])
        try down.service.cache.upsertMessages([down.cached(1, sender: 2)])
        let error503 = try #require(throws: Failure.self) { try down.service.markRead([down.cached(1, sender: 2)], dialogID: "d1") }
        #expect(error503.kind == .temporary)
        #expect(try down.service.cache.message(id: ScriptedService.id(1))?.readIDs == [2], "not recorded read when the server did not take it")
    }

    @Test func unreadMessagesArePagedUntilTheServersCountIsFound() throws {
        let page1 = (0..<100).map { ScriptedService.item($0, sender: $0 == 5 ? 1 : 2, read: $0 < 99 ? [2, 1] : nil) }
        let page2 = [ScriptedService.item(100, sender: 3), ScriptedService.item(101, sender: 2), ScriptedService.item(102, sender: 2)]
        let f = try ScriptedService([
            reply(200, #"{"total":"2","d1":"2"}"#),
            reply(200, #"{"items":[\#(page1.joined(separator: ","))]}"#),
            reply(200, #"{"items":[\#(page2.joined(separator: ","))]}"#),
        ])
        let unread = try f.service.unreadMessages(dialogID: "d1")
        #expect(unread.count == 2)
        #expect(unread.messages.map(\.id) == [ScriptedService.id(99), ScriptedService.id(100)])
        #expect(f.transport.requests.count == 3, "stops once the count is found")
        #expect(f.transport.requests[0].url.hasSuffix("/chat/Message/unread.json?chat_dialog_ids=d1"))
        #expect(f.transport.requests[1].url.contains("mark_as_read=0"), "looking never marks")
        #expect(try f.service.cache.messageCount(dialogID: "d1") == 103, "every page read is cached")
    }

    @Test func nothingUnreadAsksNoHistory() throws {
        let f = try ScriptedService([reply(200, #"{"total":0}"#)])
        let unread = try f.service.unreadMessages(dialogID: "d1")
        #expect(unread.count == 0 && unread.messages.isEmpty)
        #expect(f.transport.requests.count == 1)
    }
}

@Suite struct UnreadCountTests {
    func fixture(_ answer: String) throws -> ScriptedService {
        let f = try ScriptedService([reply(200, answer)])
        try f.service.cache.upsertDialogs(["d1", "d2", "d3"].enumerated().map { index, id in
            CachedDialog(id: DialogID(id), type: .group, name: id, occupantIDs: [1, 2], unreadCount: 5 + index, updatedAt: 1, rawJSON: "{}")
        })
        return f
    }

    func counts(_ f: ScriptedService) throws -> [Int] {
        try f.service.cache.dialogs().sorted { $0.id < $1.id }.map(\.unreadCount)
    }

    @Test func theUnreadCallWinsOverTheListsLaggingCounts() throws {
        let f = try fixture(#"{"total":3,"d1":1,"d2":2,"d3":0}"#)
        #expect(try f.service.refreshUnreadCounts() == 3)
        #expect(try counts(f) == [1, 2, 0])
        #expect(f.transport.requests[0].url.hasSuffix("/chat/Message/unread.json"))
    }

    @Test func aDialogLeftOutIsZeroOnlyWhenTheTotalIsAccountedFor() throws {
        let complete = try fixture(#"{"total":2,"d1":2}"#)
        try complete.service.refreshUnreadCounts()
        #expect(try counts(complete) == [2, 0, 0])
        let partial = try fixture(#"{"total":9,"d1":2}"#)
        try partial.service.refreshUnreadCounts()
        #expect(try counts(partial) == [2, 6, 7], "the rest of the total is somewhere: the list's counts stay")
    }

    @Test func garbageIsAnErrorAndChangesNothing() throws {
        let f = try fixture(#"["not","counts"]"#)
        #expect(throws: Failure.self) { try f.service.refreshUnreadCounts() }
        #expect(try counts(f) == [5, 6, 7])
    }
}

@Suite struct IncomingMarkerTests {
    static let me = 1
    static let dialog = CachedDialog(id: "d1", type: .group, name: "ops", occupantIDs: [1, 2, 3], updatedAt: 1, rawJSON: "{}")
    static let mine = CachedMessage(id: "m1", dialogID: "d1", senderID: 1, dateSent: 1, text: "hi", rawJSON: "{}")

    static func marker(_ kind: ChatMarker.Kind = .received, from: String = "2-7@c/r", id: String = "m1", dialog: DialogID? = "d1") -> ChatMarker {
        ChatMarker(kind: kind, messageID: id, peer: ChatJID(parsing: from)!, dialogID: dialog)
    }

    @Test func anOccupantsMarkersForOurMessageCount() {
        #expect(MarkerExchange.receipt(for: Self.marker(), me: Self.me, message: Self.mine, dialog: Self.dialog)
                == MessageReceipt(messageID: "m1", userID: 2, kind: .delivered))
        #expect(MarkerExchange.receipt(for: Self.marker(.displayed, dialog: nil), me: Self.me, message: Self.mine, dialog: Self.dialog)
                == MessageReceipt(messageID: "m1", userID: 2, kind: .read))
        #expect(MarkerExchange.receipt(for: Self.marker(from: "77_d1@muc.c/3"), me: Self.me, message: Self.mine, dialog: Self.dialog)
                == MessageReceipt(messageID: "m1", userID: 3, kind: .delivered), "sent into the room: the nickname is the sender")
        let open = CachedDialog(id: "d1", type: .publicGroup, name: "lobby", occupantIDs: [1], updatedAt: 1, rawJSON: "{}")
        #expect(MarkerExchange.receipt(for: Self.marker(from: "9-7@c"), me: Self.me, message: Self.mine, dialog: open) != nil,
                "anyone may be in a public group")
    }

    @Test(arguments: [
        ("a message we never sent (not cached)", marker(id: "m1"), nil as CachedMessage?),
        ("someone else's message", marker(), CachedMessage(id: "m1", dialogID: "d1", senderID: 2, dateSent: 1, text: "", rawJSON: "{}")),
        ("from someone not in the dialog", marker(from: "9-7@c/r"), mine),
        ("our own marker", marker(from: "1-7@c/other"), mine),
        ("naming another dialog", marker(dialog: "d2"), mine),
        ("from no user", marker(from: "c"), mine),
    ] as [(String, ChatMarker, CachedMessage?)])
    func isIgnored(_ why: String, marker: ChatMarker, message: CachedMessage?) {
        #expect(MarkerExchange.receipt(for: marker, me: Self.me, message: message, dialog: Self.dialog) == nil, "\(why)")
    }

    @Test(arguments: [
        (#"{"_id":"a","markable":1,"message":"x"}"#, true), (#"{"_id":"a","markable":"1"}"#, true),
        (#"{"_id":"a","markable":true}"#, true), (#"{"_id":"a","markable":"true"}"#, true),
        (#"{"_id":"a","markable":0}"#, false), (#"{"_id":"a"}"#, false),
        (#"{"_id":"a","message":"say \"markable\":1, please"}"#, false),
    ])
    func markableIsReadFromTheObject(json: String, expected: Bool) {
        let message = CachedMessage(id: "a", dialogID: "d1", senderID: 2, dateSent: 1, text: "", rawJSON: json)
        #expect(message.isMarkable == expected)
    }

    @Test func chatMessagesKeepMarkableAndOurSendsCountTheSender() {
        let incoming = IncomingChatMessage(kind: .chat, id: "m2", from: ChatJID(parsing: "2-7@c/r")!, senderUserID: 2, dialogID: "d1",
                                           dateSent: 5, body: "hi", markable: true)
        #expect(CachedMessage(incoming, dialogID: "d1", recipient: 1).isMarkable)
        let sent = CachedMessage(sentID: "m3", dialogID: "d1", sender: 1, recipient: 2, text: "yo", dateSent: 5)
        #expect(sent.deliveredIDs == [1] && sent.readIDs == [1] && sent.status == .sent)
    }
}
