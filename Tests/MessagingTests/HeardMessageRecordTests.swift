import Testing
import MessageCache
import QuickBloxAPI
import XMPPTransport
@testable import Messaging
import ChatIdentifiers

/// A message heard over chat becomes the cache's QuickBlox object: written from a list
/// of members, it must be the object a dictionary of them wrote, custom
/// parameters never replacing the message's own keys.
@Suite struct HeardMessageRecordTests {
    static func expected(_ incoming: IncomingChatMessage, dialogID: DialogID, recipient: Int) -> String {
        var object: [String: JSONValue] = [
            "_id": .string(incoming.id), "chat_dialog_id": .string(dialogID.rawValue), "message": .string(incoming.body),
            "sender_id": .int(incoming.senderUserID ?? 0), "recipient_id": .int(recipient), "date_sent": .int(incoming.dateSent),
        ]
        if incoming.markable { object["markable"] = .int(1) }
        for (key, value) in incoming.customParameters where object[key] == nil { object[key] = .string(value) }
        let attachments = incoming.attachments.map(QBAttachment.init)
        if !attachments.isEmpty { object["attachments"] = .array(attachments.map { .object($0.raw) }) }
        return JSONValue.object(object).compactText
    }

    static let from = ChatJID(parsing: "2-7@c/r")!
    static let cases: [IncomingChatMessage] = [
        IncomingChatMessage(kind: .chat, id: "m1", from: from, senderUserID: 2, dialogID: "d1", dateSent: 5, body: "hi"),
        IncomingChatMessage(kind: .chat, id: "m2", from: from, senderUserID: 2, dialogID: "d1", dateSent: 5,
                            body: "say \"hi\"\n\t\u{1}", markable: true),
        IncomingChatMessage(kind: .groupchat, id: "m3", from: from, senderUserID: nil, dialogID: nil, dateSent: 6, body: "x",
                            customParameters: ["_id": "forged", "message": "no", "markable": "0", "attachments": "none",
                                               "a": "1", "zz": "2", "B": "3", "sender_id": "9"],
                            markable: true),
        IncomingChatMessage(kind: .chat, id: "m4", from: from, senderUserID: 2, dialogID: "d1", dateSent: 7, body: "[attachment]",
                            customParameters: ["attachments": "kept?", "markable": "yes", "city": "Oslo"],
                            attachments: [ChatAttachment(attributes: [.init("type", "image"), .init("id", "u1"), .init("size", "12")])]),
        IncomingChatMessage(kind: .chat, id: "m5", from: from, senderUserID: 2, dialogID: "d1", dateSent: 7, body: "",
                            customParameters: ["attachments": "kept", "markable": "kept too"]),
    ]

    @Test(arguments: cases)
    func theObjectIsWhatADictionaryWrote(_ incoming: IncomingChatMessage) {
        let record = CachedMessage(incoming, dialogID: "d1", recipient: 1)
        #expect(record.rawJSON == Self.expected(incoming, dialogID: "d1", recipient: 1))
    }
}
