// The twins checked against each other (docs/architecture.md) for attachments (docs/protocol.md
// §8): what chatctl writes, stored and forwarded by the sandbox and read back by the client's
// own parser through libstrophe; and what the sandbox writes of a REST message, read the same way.
import ChatIdentifiers
import Foundation
import Testing
import SandboxXMPP
@testable import XMPPTransport

@Suite("Attachments, written by one twin and read by the other", .serialized)
struct AttachmentCrossTests {
    private func createPrivateDialog(_ f: MessagingFixture, _ owner: Int, _ other: Int) throws -> String {
        let (status, json) = try f.rest(.post, "/chat/Dialog.json", form: "type=3&occupants_ids=\(other)", as: owner)
        #expect(status == 201)
        return try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["_id"] as? String)
    }

    private func read(_ xml: String) throws -> IncomingChatMessage? {
        let stanza = try #require(StanzaElement(parsingWithStrophe: xml), "libstrophe could not parse \(xml)")
        guard case .message(let m)? = ChatEvent.parse(stanza, receivedAt: 0) else { return nil }
        return m
    }

    @Test func whatChatctlWritesIsStoredForwardedAndReadBack() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let annClient = try f.connect(ann, "ann", resource: "cli"), bobClient = try f.connect(bob, "bob", resource: "web")
        try f.enableAcks(annClient)
        let dialog = try createPrivateDialog(f, ann, bob)
        let attachments = [
            ChatAttachment(type: "image", id: "8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b", name: "cat \"&\" <dog>.jpg", size: 1_258_291,
                           contentType: "image/jpeg"),
            ChatAttachment(type: "file", id: "uid-2", name: "notes.txt"),
        ]
        let message = OutgoingChatMessage(id: ObjectID(objectId(40))!, kind: .chat,
                                          to: ChatJID(parsing: f.jid(bob))!, body: "[attachment]", dialogID: DialogID(dialog), saveToHistory: true,
                                          attachments: attachments)
        annClient.send(message.xml)
        #expect(f.ack(annClient, expecting: 1))
        #expect(bobClient.read(untilContains: "</message>"))
        let heard = try #require(try read(bobClient.received), "not a message: \(bobClient.received)")
        #expect(heard.attachments == attachments)
        #expect(heard.body == "[attachment]")
        // Directly inside extraParams, where the SDKs' parseExtraParams looks.
        let stanza = try #require(StanzaElement(parsingWithStrophe: bobClient.received))
        #expect(stanza.child("extraParams")?.children.filter { $0.name == "attachment" }.count == 2)

        // And REST history gives the array the SDKs read: the uid as `id`, a numeric size.
        let (status, body) = try f.rest(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&mark_as_read=0", as: bob)
        #expect(status == 200)
        let items = try #require((try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
        let first = try #require((items.first?["attachments"] as? [[String: Any]])?.first)
        #expect(first["id"] as? String == "8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b" && first["size"] as? Int == 1_258_291)
        #expect(first["name"] as? String == "cat \"&\" <dog>.jpg" && first["content-type"] as? String == "image/jpeg")
    }

    @Test func aRESTMessagesAttachmentsReachChatAsTheClientReadsThem() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let bobClient = try f.connect(bob, "bob", resource: "web")
        let dialog = try createPrivateDialog(f, ann, bob)
        let form = "chat_dialog_id=\(dialog)&send_to_chat=1&attachments%5B0%5D%5Btype%5D=image&attachments%5B0%5D%5Bid%5D=u%26v"
            + "&attachments%5B0%5D%5Bname%5D=a%27b.png&attachments%5B0%5D%5Bsize%5D=2048"
        #expect(try f.rest(.post, "/chat/Message.json", form: form, as: ann).0 == 201)
        #expect(bobClient.read(untilContains: "</message>"))
        let heard = try #require(try read(bobClient.received), "not a message: \(bobClient.received)")
        #expect(heard.attachments == [ChatAttachment(type: "image", id: "u&v", name: "a'b.png", size: 2048)])
        #expect(heard.body == "", "a REST message of attachments alone has no text")
    }
}
