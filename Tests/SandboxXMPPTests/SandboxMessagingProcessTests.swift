// The real chatctl-sandbox binary end to end: a REST send with `send_to_chat=1` reaches an
// XMPP client connected to the same process.
import Foundation
import Testing
import TestSupport

@Suite struct SandboxMessagingProcessTests {
    @Test func restSendToChatReachesAConnectedXMPPClient() throws {
        let sandbox = try SandboxProcess()
        let ann = try signUpUser(on: sandbox, login: "ann-e2e", password: "password-ann")
        let bob = try signUpUser(on: sandbox, login: "bob-e2e", password: "password-bob")
        let annToken = try sandbox.createSession(login: "ann-e2e", password: "password-ann")
        let chatPort = try #require(sandbox.chatEndpoint.split(separator: ":").last.flatMap { Int($0) })
        let app = sandbox.applicationId

        let client = try RawXMPPClient(port: chatPort)
        #expect(client.authenticate(as: "\(bob)-\(app)", password: "password-bob"))
        client.send("<iq type='set' id='b'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>e2e</resource></bind></iq>")
        #expect(client.read(untilContains: "</iq>"))
        client.clear()

        let dialog = try sandbox.createDialog(token: annToken, type: 3, occupantIds: [bob])
        let dialogId = try #require(dialog["_id"] as? String)
        #expect(dialog["occupants_ids"] as? [Int] == [ann, bob])
        let sent = try sandbox.sendMessage(token: annToken, dialogId: dialogId, text: "hello from rest", sendToChat: true)
        let messageId = try #require(sent["_id"] as? String)

        #expect(client.read(untilContains: "</message>"))
        #expect(client.received.contains("<body>hello from rest</body>"))
        #expect(client.received.contains("type='chat'") && client.received.contains("from='\(ann)-\(app)@localhost'"))
        #expect(client.received.contains("id='\(messageId)'"))
        #expect(elementText("dialog_id", in: client.received) == dialogId)
        #expect(elementText("date_sent", in: client.received) != nil)
        // Bob finds it in history too, and reading it there clears his unread count.
        let bobToken = try sandbox.createSession(login: "bob-e2e", password: "password-bob")
        let unread = try sandbox.response(method: "GET", path: "/chat/Message/unread.json", token: bobToken)
        #expect((unread.json as? [String: Any])?["total"] as? Int == 1)
        let history = try sandbox.response(method: "GET", path: "/chat/Message.json", params: [("chat_dialog_id", dialogId)], token: bobToken)
        #expect(((history.json as? [String: Any])?["items"] as? [[String: Any]])?.first?["_id"] as? String == messageId)
        let after = try sandbox.response(method: "GET", path: "/chat/Message/unread.json", token: bobToken)
        #expect((after.json as? [String: Any])?["total"] as? Int == 0)
        sandbox.stop()
    }
}
