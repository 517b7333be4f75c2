import Testing
import QuickBloxAPI

/// Replies and forwards in the UI Kits' wire shape (docs/protocol.md §6, "Replies and
/// forwards"): what each kit writes is read, and what chatctl writes is what they read.
@Suite struct QuotedMessagesTests {
    /// A REST history item of a reply the iOS UI Kit sent (QBChatMessage+RemoteMessageDTO,
    /// RemoteOriginalMessageDTO): custom fields as strings, `date_sent` in milliseconds.
    static let iOSReply = #"""
    {"_id":"6555bb10924a346ee0000007","chat_dialog_id":"6555ba1b32eaaf007c4f552d","message":"yes, all green",
     "sender_id":134804148,"recipient_id":134804147,"date_sent":1700117264,"read_ids":[134804148],"delivered_ids":[134804148],
     "attachments":[],"save_to_history":"1","qb_message_action":"reply","origin_sender_name":"Bob",
     "qb_original_messages":"[{\"_id\":\"6555bab4924a346ee0000005\",\"chat_dialog_id\":\"6555ba1b32eaaf007c4f552d\",\"message\":\"did the deploy finish?\",\"recipient_id\":134804148,\"sender_id\":134804147,\"date_sent\":1700117172000,\"attachments\":[],\"created_at\":\"2023-11-16T06:46:12Z\",\"updated_at\":\"2023-11-16T06:46:12Z\",\"delivered_ids\":[134804147],\"read_ids\":[134804147]}]"}
    """#

    /// The Android UI Kit's own test vector (ForwardMessageParserTest): a forwarded image.
    static let androidForwardedArray = #"""
    [{"_id":"6555bab4924a346ee0000005","attachments":[{"id":"11411032","uid":"7ebbafa088a342e689e8bc6a8f35f25300","type":"image/png","url":"https://api.quickblox.com/blobs/7ebbafa088a342e689e8bc6a8f35f25300?token=x","name":"game-icon-timber-2.png","size":"29862"}],"chat_dialog_id":"6555ba1b32eaaf007c4f552d","created_at":"2023-11-16T06:46:12Z","date_sent":1700117172000,"delivered_ids":[134804147],"message":"game-icon-timber-2.png","read_ids":[134804147],"read":0,"recipient_id":0,"sender_id":134804147,"updated_at":"2023-11-16T06:46:12Z","notification_type":""}]
    """#

    @Test func readsAReplyTheIOSKitSent() throws {
        let message = try #require(QBMessage(json: try JSONValue(parsing: Self.iOSReply)))
        let quoted = try #require(QBQuotedMessages(custom: message.customParameters))
        #expect(quoted.action == .reply)
        #expect(quoted.originSenderName == "Bob")
        #expect(quoted.originals == [QBQuotedMessages.Original(id: "6555bab4924a346ee0000005", dialogID: "6555ba1b32eaaf007c4f552d",
                                                                 text: "did the deploy finish?", senderID: 134804147, dateSent: 1700117172)])
        #expect(message.message == "yes, all green", "the reply's own text is the message's")
    }

    @Test func readsAForwardTheAndroidKitSentOverChat() throws {
        // Over XMPP every extraParams child is text; Android writes seconds where iOS writes milliseconds.
        let seconds = Self.androidForwardedArray.replacing("1700117172000", with: "1700117172")
        for array in [Self.androidForwardedArray, seconds] {
            let quoted = try #require(QBQuotedMessages(custom: ["qb_message_action": "forward", "origin_sender_name": "Carol",
                                                                "qb_original_messages": array]))
            #expect(quoted.action == .forward)
            let original = try #require(quoted.originals.first)
            #expect(original.dateSent == 1700117172, "milliseconds and seconds alike")
            #expect(original.senderID == 134804147 && original.text == "game-icon-timber-2.png")
            #expect(original.attachments.first?.id == "11411032" && original.attachments.first?.name == "game-icon-timber-2.png")
        }
    }

    @Test func toleratesTheReactKitsUndefinedNameAndAnArrayInsteadOfItsText() throws {
        let array = try JSONValue(parsing: #"[{"_id":"a1","message":"hi","sender_id":"7","date_sent":1700117172000}]"#)
        let quoted = try #require(QBQuotedMessages(custom: ["qb_message_action": .string("reply"), "origin_sender_name": .string("undefined"),
                                                            "qb_original_messages": array]))
        #expect(quoted.originSenderName == nil, "the React kit writes \"undefined\" when it had no name")
        #expect(quoted.originals.first?.senderID == 7, "a sender id as text")
    }

    @Test(arguments: [
        ["qb_message_action": "undefined", "qb_original_messages": #"[{"_id":"a1","message":"hi"}]"#],
        ["qb_message_action": "reply"],
        ["qb_message_action": "reply", "qb_original_messages": "not json"],
        ["qb_message_action": "reply", "qb_original_messages": "[]"],
        ["qb_message_action": "reply", "qb_original_messages": #"["text", 4]"#],
        ["qb_original_messages": #"[{"_id":"a1","message":"hi"}]"#],
    ])
    func isNoQuoteWithoutAnActionAndAnOriginal(_ custom: [String: String]) {
        #expect(QBQuotedMessages(custom: custom) == nil)
    }

    @Test func writesWhatTheKitsRead() throws {
        let original = QBQuotedMessages.Original(id: "6555bab4924a346ee0000005", dialogID: "6555ba1b32eaaf007c4f552d",
                                                 text: "the chart", senderID: 8, dateSent: 1700117172,
                                                 attachments: [QBAttachment(type: "image", id: "9f8e7d6c", name: "chart.png", size: 2048)])
        let custom = QBQuotedMessages(action: .forward, originSenderName: "Bob", originals: [original]).customParameters
        #expect(custom["qb_message_action"] == "forward")
        #expect(custom["origin_sender_name"] == "Bob")
        // Sorted keys; numbers as numbers (iOS reads `sender_id` as UInt, `date_sent` as Int64 milliseconds);
        // `uid` beside `id` (Android reads `uid`, iOS `id`).
        #expect(custom["qb_original_messages"] == #"[{"_id":"6555bab4924a346ee0000005","attachments":[{"id":"9f8e7d6c","name":"chart.png","size":2048,"type":"image","uid":"9f8e7d6c"}],"chat_dialog_id":"6555ba1b32eaaf007c4f552d","date_sent":1700117172000,"delivered_ids":[],"message":"the chart","read_ids":[],"recipient_id":0,"sender_id":8}]"#)
        var back = try #require(QBQuotedMessages(custom: custom)?.originals.first)
        #expect(back.attachments.map(\.id) == ["9f8e7d6c"] && back.attachments.map(\.name) == ["chart.png"])
        back.attachments = original.attachments
        #expect(back == original, "and reads back what it wrote")
    }
}
