#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import QuickBloxAPI

func decodeJSON(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
}

@Suite struct QBDialogTests {
    static let groupDialog = #"""
    {"_id":"5d75d2b0a28f9a1b2c3d4e5f","type":2,"name":"ops","photo":null,"user_id":7,"occupants_ids":[7,8,9],
     "xmpp_room_jid":"22_5d75d2b0a28f9a1b2c3d4e5f@muc.chat.quickblox.com","last_message":"deploy done",
     "last_message_date_sent":1567963451,"last_message_id":"5d75d2b0a28f9a1b2c3d4e60","last_message_user_id":8,
     "unread_messages_count":3,"created_at":"2019-09-08T17:24:11Z","updated_at":"2019-09-08T17:30:00Z",
     "data":{"class_name":"Team"}}
    """#

    @Test func decodesEveryTypedFieldAndKeepsRaw() throws {
        let json = try decodeJSON(Self.groupDialog)
        let dialog = try #require(QBDialog(json: json))
        #expect(dialog.id == "5d75d2b0a28f9a1b2c3d4e5f")
        #expect(dialog.type == .group)
        #expect(dialog.name == "ops")
        #expect(dialog.photo == nil)
        #expect(dialog.userId == 7)
        #expect(dialog.occupantIDs == [7, 8, 9])
        #expect(dialog.xmppRoomJID == "22_5d75d2b0a28f9a1b2c3d4e5f@muc.chat.quickblox.com")
        #expect(dialog.lastMessage == "deploy done")
        #expect(dialog.lastMessageDateSent == 1567963451)
        #expect(dialog.lastMessageId == "5d75d2b0a28f9a1b2c3d4e60")
        #expect(dialog.lastMessageUserId == 8)
        #expect(dialog.unreadMessagesCount == 3)
        #expect(dialog.createdAt == Date(timeIntervalSince1970: 1567963451))
        #expect(dialog.updatedAt == Date(timeIntervalSince1970: 1567963800))
        // raw is the object exactly as received, unknown keys and nulls included.
        #expect(dialog.raw == json.objectValue)
        #expect(dialog.raw["photo"] == .null)
        #expect(dialog.raw["data"] == ["class_name": "Team"])
    }

    @Test func privateDialogWithStringNumbersAndMissingKeys() throws {
        let json = try decodeJSON(#"""
        {"_id":"5d75d2b0a28f9a1b2c3d4e61","type":"3","user_id":"7","occupants_ids":"7, 42",
         "xmpp_room_jid":null,"last_message_date_sent":null,"unread_messages_count":"12","last_message_user_id":"42"}
        """#)
        let dialog = try #require(QBDialog(json: json))
        #expect(dialog.type == .private)
        #expect(dialog.userId == 7)
        #expect(dialog.occupantIDs == [7, 42])
        #expect(dialog.xmppRoomJID == nil)
        #expect(dialog.name == nil)
        #expect(dialog.lastMessage == nil)
        #expect(dialog.lastMessageDateSent == nil)
        #expect(dialog.lastMessageId == nil)
        #expect(dialog.lastMessageUserId == 42)
        #expect(dialog.unreadMessagesCount == 12)
        #expect(dialog.createdAt == nil)
        #expect(dialog.updatedAt == nil)
    }

    @Test(arguments: [
        #"[7,8]"#, #"["7","8"]"#, #""7,8""#, #""7, 8""#, #"[7.0," 8"]"#, #"[7,"x",8,null]"#,
    ])
    func occupantsInEveryShape(occupants: String) throws {
        let json = try decodeJSON(#"{"_id":"a1","type":2,"occupants_ids":\#(occupants)}"#)
        #expect(QBDialog(json: json)?.occupantIDs == [7, 8])
    }

    @Test(arguments: [
        (#"1567963451"#, Optional(1567963451)),
        (#"1567963451.9"#, 1567963451),
        (#""1567963451""#, 1567963451),
        (#""1567963451.25""#, 1567963451),
        (#"null"#, nil),
        (#""""#, nil),
    ])
    func lastMessageDateSentInEveryShape(value: String, expected: Int?) throws {
        let json = try decodeJSON(#"{"_id":"a1","type":2,"last_message_date_sent":\#(value)}"#)
        let dialog = try #require(QBDialog(json: json))
        #expect(dialog.lastMessageDateSent == expected)
    }

    @Test func unknownTypeStillDecodes() throws {
        let dialog = try #require(QBDialog(json: try decodeJSON(#"{"_id":"a1","type":4}"#)))
        #expect(dialog.type.rawValue == 4)
        #expect(dialog.type.description == "4")
        #expect(dialog.occupantIDs == [])
        #expect(dialog.unreadMessagesCount == 0)
    }

    @Test(arguments: [#"{"type":2}"#, #"{"_id":"a1"}"#, #"{"_id":"a1","type":"group"}"#, #"[1]"#, #"{"_id":"","type":2}"#])
    func rejectsObjectsWithoutIdOrType(text: String) throws {
        #expect(QBDialog(json: try decodeJSON(text)) == nil)
    }
}
