#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import QuickBloxAPI

@Suite struct QBMessageTests {
    static let groupMessage = #"""
    {"_id":"5d75d2b0a28f9a1b2c3d4e70","chat_dialog_id":"5d75d2b0a28f9a1b2c3d4e5f","message":"deploy done",
     "sender_id":8,"recipient_id":0,"date_sent":1567963451,"read_ids":[8,7],"delivered_ids":[8,7,9],
     "attachments":[{"type":"image","id":"9f8e7d6c5b4a","name":"graph.png","size":20480,
                     "url":"https://example.com/blobs/9f8e7d6c5b4a","content-type":"image/png"}],
     "created_at":"2019-09-08T17:24:11Z","updated_at":"2019-09-08T17:24:12Z","priority":"high","build":{"n":42}}
    """#

    @Test func decodesEveryTypedFieldAndCustomKeys() throws {
        let json = try decodeJSON(Self.groupMessage)
        let message = try #require(QBMessage(json: json))
        #expect(message.id == "5d75d2b0a28f9a1b2c3d4e70")
        #expect(message.chatDialogId == "5d75d2b0a28f9a1b2c3d4e5f")
        #expect(message.message == "deploy done")
        #expect(message.senderId == 8)
        #expect(message.recipientId == 0)
        #expect(message.dateSent == 1567963451)
        #expect(message.readIds == [8, 7])
        #expect(message.deliveredIds == [8, 7, 9])
        #expect(message.attachments.count == 1)
        let attachment = try #require(message.attachments.first)
        #expect(attachment.type == "image")
        #expect(attachment.id == "9f8e7d6c5b4a")
        #expect(attachment.name == "graph.png")
        #expect(attachment.size == 20480)
        #expect(attachment.url == "https://example.com/blobs/9f8e7d6c5b4a")
        #expect(attachment.contentType == "image/png")
        #expect(message.createdAt == Date(timeIntervalSince1970: 1567963451))
        #expect(message.updatedAt == Date(timeIntervalSince1970: 1567963452))
        #expect(message.raw == json.objectValue)
        #expect(message.customParameters == ["priority": "high", "build": ["n": 42]])
    }

    @Test func looseTypesNullTextAndMissingRecipient() throws {
        let json = try decodeJSON(#"""
        {"_id":"m2","chat_dialog_id":"d1","message":null,"sender_id":"42","date_sent":"1567963451.5",
         "read_ids":"42,7","delivered_ids":null,
         "attachments":[{"type":"file","id":12345,"size":"2048"},{}]}
        """#)
        let message = try #require(QBMessage(json: json))
        #expect(message.message == nil)
        #expect(message.senderId == 42)
        #expect(message.recipientId == nil)
        #expect(message.dateSent == 1567963451)
        #expect(message.readIds == [42, 7])
        #expect(message.deliveredIds == [])
        #expect(message.attachments.map(\.id) == ["12345", nil])
        #expect(message.attachments.first?.size == 2048)
        #expect(message.attachments.last?.contentType == nil)
        #expect(message.customParameters.isEmpty)
    }

    @Test(arguments: [(#"1567963451"#, 1567963451), (#"1567963451.99"#, 1567963451), (#""1567963451""#, 1567963451)])
    func dateSentInEveryShape(value: String, expected: Int) throws {
        let json = try decodeJSON(#"{"_id":"m1","chat_dialog_id":"d1","sender_id":1,"date_sent":\#(value)}"#)
        #expect(QBMessage(json: json)?.dateSent == expected)
    }

    @Test func missingDateSentFallsBackToCreatedAtAndMissingDialogToTheQuery() throws {
        let json = try decodeJSON(#"{"_id":"m1","sender_id":1,"created_at":"2019-09-08T17:24:11Z","message":"hi"}"#)
        #expect(QBMessage(json: json) == nil)
        let message = try #require(QBMessage(json: json, dialogId: "d9"))
        #expect(message.chatDialogId == "d9")
        #expect(message.dateSent == 1567963451)
    }

    @Test func attachmentsAsFormStyleObject() throws {
        let json = try decodeJSON(#"""
        {"_id":"m1","chat_dialog_id":"d1","attachments":{"1":{"id":"b"},"0":{"id":"a"},"10":{"id":"c"}}}
        """#)
        #expect(QBMessage(json: json)?.attachments.map(\.id) == ["a", "b", "c"])
    }
}
