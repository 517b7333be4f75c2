import Foundation
import Testing
import MessageCache
@testable import ChatctlCLI
@testable import Presentation

/// `--json` of cached objects: the server's object, plus the state of one's own messages.
@Suite struct JSONOutputTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func ownMessagesGetStatusAndTheListsAsTheCacheKnowsThem() throws {
        let raw = #"{"_id":"m1","delivered_ids":[1],"message":"hi","read_ids":[1],"sender_id":1}"#
        let mine = CachedMessage(id: "m1", dialogID: "d", senderID: 1, dateSent: 1, text: "hi", rawJSON: raw,
                                 deliveredIDs: [1, 2], readIDs: [1])
        let shown = try Self.object(JSONOutput.message(mine, me: 1))
        #expect(shown["status"] as? String == "delivered")
        #expect(shown["delivered_ids"] as? [Int] == [1, 2], "the server's list, updated by a marker")
        #expect(shown["read_ids"] as? [Int] == [1])
        #expect(shown["message"] as? String == "hi" && shown["_id"] as? String == "m1", "the rest as the server sent it")
        var read = mine
        read.readIDs = [1, 2]
        #expect(try Self.object(JSONOutput.message(read, me: 1))["status"] as? String == "read")
        var sent = mine
        sent.deliveredIDs = [1]
        #expect(try Self.object(JSONOutput.message(sent, me: 1))["status"] as? String == "sent")
    }

    @Test func othersMessagesAreTheServersObjectAsItWas() {
        let raw = #"{"_id":"m2","delivered_ids":[2],"sender_id":2}"#
        let theirs = CachedMessage(id: "m2", dialogID: "d", senderID: 2, dateSent: 1, text: "", rawJSON: raw, deliveredIDs: [2, 1])
        #expect(JSONOutput.message(theirs, me: 1) == raw)
    }

    @Test func dialogsShowTheUnreadCountFromTheUnreadCall() throws {
        let raw = #"{"_id":"d1","type":2,"unread_messages_count":5}"#
        let lagging = CachedDialog(id: "d1", type: .group, name: "", occupantIDs: [], unreadCount: 2, updatedAt: 1, rawJSON: raw)
        let shown = try Self.object(JSONOutput.dialog(lagging))
        #expect(shown["unread_messages_count"] as? Int == 2)
        #expect(shown["type"] as? Int == 2)
        let same = CachedDialog(id: "d1", type: .group, name: "", occupantIDs: [], unreadCount: 5, updatedAt: 1, rawJSON: raw)
        #expect(JSONOutput.dialog(same) == #"{"_id":"d1","type":2,"unread_messages_count":5,"muted":false,"muted_until":null}"#,
                "the server's text when they agree, and muted")
    }

    /// `muted` is the cache's flag, on every dialog; the rest is the server's object.
    @Test func dialogsSayWhetherTheyAreMuted() throws {
        let raw = #"{"_id":"d1","type":2,"unread_messages_count":5}"#
        var dialog = CachedDialog(id: "d1", type: .group, name: "", occupantIDs: [], unreadCount: 5, updatedAt: 1, rawJSON: raw,
                                  muted: true)
        #expect(JSONOutput.dialog(dialog) == #"{"_id":"d1","type":2,"unread_messages_count":5,"muted":true,"muted_until":null}"#)
        dialog.unreadCount = 1
        let lagging = try Self.object(JSONOutput.dialog(dialog))
        #expect(lagging["muted"] as? Bool == true && lagging["unread_messages_count"] as? Int == 1)
        dialog.rawJSON = #"{}"#
        dialog.unreadCount = 0
        #expect(JSONOutput.dialog(dialog) == #"{"muted":true,"muted_until":null,"unread_messages_count":0}"#, "an object without members")
        dialog.rawJSON = #"{"_id":"d1","muted":false,"unread_messages_count":0}"#
        #expect(try Self.object(JSONOutput.dialog(dialog))["muted"] as? Bool == true, "the cache's flag, never twice")
    }

    /// A mute for a while (`dialogs mute --for`) says when it ends, in Unix seconds.
    @Test func aMuteForAWhileSaysWhenItEnds() throws {
        let raw = #"{"_id":"d1","type":2,"unread_messages_count":5}"#
        var dialog = CachedDialog(id: "d1", type: .group, name: "", occupantIDs: [], unreadCount: 5, updatedAt: 1, rawJSON: raw,
                                  muted: true, mutedUntil: 1_750_000_000)
        #expect(JSONOutput.dialog(dialog) == #"{"_id":"d1","type":2,"unread_messages_count":5,"muted":true,"muted_until":1750000000}"#)
        dialog.unreadCount = 1
        #expect(try Self.object(JSONOutput.dialog(dialog))["muted_until"] as? Int == 1_750_000_000)
    }
}
