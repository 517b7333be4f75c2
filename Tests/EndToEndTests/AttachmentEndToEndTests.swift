import Foundation
import Testing
import TestSupport

/// Messages with attachments sent over REST in the forms SDKs use (docs/protocol.md §8):
/// form-encoded `attachments[0][type]=…` and a JSON object keyed "0", "1"; the real
/// `chatctl` shows them live, in history, in search and in `--json`. The uids are made up.
@Suite(.serialized) struct AttachmentEndToEndTests {
    @Test func restMessagesInTheObjectKeyedFormsShowEverywhere() throws {
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let bobToken = try sandbox.createSession(login: bob.login, password: ChatUser.password)
        let dialog = try #require(try sandbox.createDialog(token: bobToken, type: 3, occupantIds: [alice.id])["_id"] as? String)

        let listen = try alice.cli.background(["listen", "--count", "2", "--timeout", "40s"])
        try listen.waitUntilListening()
        // As a form-encoding SDK sends it (as the JavaScript SDK's users are told to).
        _ = try sandbox.sendMessage(token: bobToken, dialogId: dialog, text: "[attachment]", sendToChat: true, extra: [
            ("attachments[0][type]", "image"), ("attachments[0][id]", "8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b"),
            ("attachments[0][name]", "cat.jpg"), ("attachments[0][size]", "1258291"), ("attachments[0][content-type]", "image/jpeg"),
        ])
        // The same keyed object in a JSON body.
        let json = #"{"chat_dialog_id":"\#(dialog)","message":"the notes","send_to_chat":1,"attachments":{"0":{"type":"file","id":"1a2b","name":"notes v2.txt","size":"12"},"1":{"type":"audio","id":"3c4d"}}}"#
        let posted = try sandbox.send(method: "POST", path: "/chat/Message.json", body: json, contentType: "application/json", token: bobToken)
        #expect(posted.status == 201, "\(posted.body)")
        let heard = listen.finish(timeout: 40)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let lines = heard.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasSuffix(": [image cat.jpg 1.2 MB]"), "\(lines)")
        #expect(lines.last?.hasSuffix(": the notes [file notes v2.txt 12 B] [audio]") == true, "\(lines)")

        let transcript = try alice.run(["history", "@" + bob.login, "--offline"])
        #expect(transcript.stdout.contains("\t\(bob.login)\t\t\t[image cat.jpg 1.2 MB]\n"), "\(transcript.stdout)")
        let items = try alice.history("@" + bob.login)
        let first = try #require((items.first?["attachments"] as? [[String: Any]]))
        #expect(first.count == 1 && first[0]["content_type"] as? String == "image/jpeg" && first[0]["content-type"] as? String == "image/jpeg")
        let second = try #require(items.last?["attachments"] as? [[String: Any]], "an array, whatever form was sent")
        #expect(second.map { $0["id"] as? String } == ["1a2b", "3c4d"])
        #expect(second.first?["size"] as? Int == 12)

        let search = try alice.run(["search", "notes v2.txt", "--json"])
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [[String: Any]], "\(search.stderr)")
        #expect(hits.map { $0["message"] as? String } == ["the notes"])
        #expect(try alice.run(["search", "cat.jpg"]).stdout.hasSuffix("\t[image cat.jpg 1.2 MB]\n"))
    }
}
