// chatctl against `chatctl-sandbox --https`, unchanged: its config line says https:// for the
// API and names the certificate as caFile, which chatctl trusts for REST, the storage and chat
// (docs/protocol.md §1). Login, send (text and a file), listen, download, all verified TLS.
import Foundation
import Testing
import TestSupport

@Suite struct HTTPSEndToEndTests {
    @Test func chatctlLogsInSendsListensAndDownloadsOverHTTPS() throws {
        let sandbox = try SandboxProcess(arguments: ["--https"])
        #expect(sandbox.apiEndpoint.hasPrefix("https://"))
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        // A login with chat, too: REST over TLS, then chat's STARTTLS, both with caFile.
        let login = try bob.cli.login(bob.login, password: ChatUser.password, extra: ["--json"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(jsonObject(login.stdout)?["chat"] as? String == "connected")

        let listen = try bob.cli.background(["listen", "--count", "2", "--json", "--timeout", "60s"])
        try listen.waitUntilListening()
        let here = try TemporaryDirectory()
        try "sent over https\n".write(toFile: here.file("note.txt"), atomically: true, encoding: .utf8)
        #expect(try alice.run(["send", "@" + bob.login, "hello over https"]).status == 0)
        let attached = try alice.run(["send", "@" + bob.login, "--attach", here.file("note.txt"), "a file over https"])
        #expect(attached.status == 0, "\(attached.stderr)")

        let heard = listen.finish(timeout: 30)
        #expect(heard.status == 0, "listen: \(heard.stderr)")
        let messages = heard.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
        #expect(messages.compactMap { $0["message"] as? String } == ["hello over https", "a file over https"])
        #expect(messages.allSatisfy { $0["sender_id"] as? Int == alice.id })

        // The download follows the API's 301 to the storage endpoint, over TLS as well.
        let saved = try TemporaryDirectory()
        let messageId = try #require(messages.last?["_id"] as? String)
        let download = try bob.run(["download", messageId, "-o", saved.path + "/"])
        #expect(download.status == 0, "\(download.stderr)")
        #expect(try String(contentsOfFile: saved.file("note.txt"), encoding: .utf8) == "sent over https\n")
    }

    /// The same config without caFile: the certificate is checked, and chatctl says what to set.
    @Test func withoutCAFileTheCertificateIsRefused() throws {
        let sandbox = try SandboxProcess(arguments: ["--https"])
        var config = sandbox.config
        config["caFile"] = nil
        let path = (sandbox.configPath as NSString).deletingLastPathComponent + "/config-without-ca.json"
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
        let cli = try ChatctlRunner(configPath: path)
        let login = try cli.login(uniqueLogin(), password: "no-ca-pass-1", extra: ["--no-chat"])
        #expect(login.status != 0)
        #expect(login.stderr.contains("TLS to \(sandbox.apiEndpoint)"), "\(login.stderr)")
        #expect(login.stderr.contains("set caFile in the config"), "\(login.stderr)")
    }
}
