import Foundation
import Testing
import TestSupport

private let goSendXMPP = "/usr/bin/go-sendxmpp"

/// Messages with attachments as QuickBlox's own SDKs put them on the wire (docs/protocol.md
/// §8), sent by a client this project did not write (go-sendxmpp `--raw`) through the sandbox
/// to a chatctl user: `listen`, `history` and `search` show them. The uids are made up.
@Suite(.serialized) struct AttachmentInteropTests {
    @Test func attachmentsTheSDKsSendShowInListenHistoryAndSearch() throws {
        try #require(FileManager.default.isExecutableFile(atPath: goSendXMPP), "go-sendxmpp is not installed; `make test` installs it")
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let alice = try Peer("alice", config: sandbox.configPath), bob = try Peer("bob", config: sandbox.configPath)
        let server = sandbox.chatEndpoint.replacingOccurrences(of: "xmpp://", with: "")
        let aliceJID = "\(alice.id)-\(sandbox.applicationId)@localhost", bobJID = "\(bob.id)-\(sandbox.applicationId)@localhost"

        // The JavaScript SDK's shape (a q-municate web entry, with width and height), body [attachment];
        // then text beside two attachments, one size as an SDK that keeps doubles writes it.
        let stanzas = """
            <message type="chat" to="\(aliceJID)" id="6b0db884edb3b3d9cddf1401"><body>[attachment]</body>\
            <markable xmlns="urn:xmpp:chat-markers:0"/><extraParams xmlns="jabber:client"><save_to_history>1</save_to_history>\
            <date_sent>1796061316</date_sent><attachment type="image" id="8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b" name="cat.jpg" \
            size="1258291" content-type="image/jpeg" width="1000" height="750"/></extraParams></message>\
            <message type="chat" to="\(aliceJID)" id="6b0db884edb3b3d9cddf1402"><body>minutes &amp; slides</body>\
            <extraParams xmlns="jabber:client"><save_to_history>1</save_to_history>\
            <attachment type="file" id="9a1b2c3d4e5f60718293a4b5c6d7e8f9" name="minutes.pdf" size="20480.0" content-type="application/pdf"/>\
            <attachment type="video" id="0a1b2c3d4e5f60718293a4b5c6d7e8f9" name="demo.mp4"/></extraParams></message>
            """
        let listen = try alice.background(["listen", "--count", "2", "--timeout", "40s"])
        try listen.waitUntilListening()
        let sent = try runProcess(goSendXMPP, ["-n", "--raw", "-u", bobJID, "-p", bob.password, "-j", server, aliceJID],
                                  stdin: Data(stanzas.utf8), timeout: 20)
        #expect(sent.status == 0, "go-sendxmpp: \(sent.stderr)")
        let heard = listen.finish(timeout: 40)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let lines = heard.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(heard.stdout)")
        #expect(lines.first?.hasSuffix(": [image cat.jpg 1.2 MB]") == true, "\(lines)")
        #expect(lines.last?.hasSuffix(": minutes & slides [file minutes.pdf 20 KB] [video demo.mp4]") == true, "\(lines)")

        // Stored by the sandbox: history from the server shows and gives them.
        let transcript = try alice.run(["history", "@" + bob.login])
        #expect(transcript.stdout.contains("\t[image cat.jpg 1.2 MB]\n") && transcript.stdout.contains("[video demo.mp4]"), "\(transcript.stdout)")
        let history = try alice.run(["history", "@" + bob.login, "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]], "\(history.stderr)")
        let cat = try #require((items.first?["attachments"] as? [[String: Any]])?.first)
        #expect(cat["id"] as? String == "8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b" && cat["content_type"] as? String == "image/jpeg")
        #expect(cat["size"] as? Int == 1_258_291 && cat["width"] as? String == "1000")
        let pdf = try #require((items.last?["attachments"] as? [[String: Any]])?.first)
        #expect(pdf["size"] as? Int == 20480 && pdf["name"] as? String == "minutes.pdf")

        // Searchable by name, as typed.
        let found = try alice.run(["search", "minutes.pdf"])
        #expect(found.status == 0 && found.stdout.contains("[file minutes.pdf 20 KB]"), "\(found.stdout) \(found.stderr)")
        let byName = try alice.run(["search", "cat", "--json"])
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(byName.stdout.utf8)) as? [[String: Any]])
        #expect(hits.map { $0["_id"] as? String } == ["6b0db884edb3b3d9cddf1401"])
    }
}
