// chatctl's xmpps:// against the real sandbox (docs/protocol.md §7): TLS from the first byte on
// its direct-TLS port, the STARTTLS fallback when the port speaks plain XML first, and a
// server that never finishes the handshake.
import Foundation
import Testing
import TestSupport

@Suite struct TransportEndToEndTests {
    /// The sandbox's config with `endpoints.chat` replaced, written next to the original.
    private func config(_ sandbox: SandboxProcess, chat: String) throws -> String {
        var config = sandbox.config
        var endpoints = config["endpoints"] as? [String: Any] ?? [:]
        endpoints["chat"] = chat
        config["endpoints"] = endpoints
        let path = (sandbox.configPath as NSString).deletingLastPathComponent + "/config-\(UUID().uuidString).json"
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func chat(of result: ProcessResult) -> String? {
        jsonObject(result.stdout)?["chat"] as? String
    }

    @Test func xmppsToTheDirectTLSPortIsTLSFromTheFirstByte() throws {
        let sandbox = try SandboxProcess(arguments: ["--chat-tls-port", "0"])
        let directTLS = try #require((sandbox.config["endpoints"] as? [String: Any])?["chatDirectTLS"] as? String)
        let cli = try ChatctlRunner(configPath: try config(sandbox, chat: directTLS))
        let login = try cli.login(uniqueLogin(), password: "direct-tls-1", extra: ["--json", "--verbose"])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        #expect(chat(of: login) == "connected")
        #expect(login.stderr.contains("chat: connected to \(directTLS) with TLS from the first byte"))
        #expect(!login.stderr.contains("trying STARTTLS"))
        // Messages go over it too.
        let peer = uniqueLogin()
        _ = try signUpUser(on: sandbox, login: peer, password: "direct-tls-2")
        let sent = try cli.run(["send", "@" + peer, "over direct TLS", "--via", "chat"])
        #expect(sent.status == 0, "stderr: \(sent.stderr)")
    }

    @Test func xmppsToAPortThatSpeaksPlainXMLFallsBackToSTARTTLS() throws {
        let sandbox = try SandboxProcess()
        let startTLSPort = sandbox.chatEndpoint.replacingOccurrences(of: "xmpp://", with: "")
        let cli = try ChatctlRunner(configPath: try config(sandbox, chat: "xmpps://" + startTLSPort))
        let login = try cli.login(uniqueLogin(), password: "fallback-1", extra: ["--json", "--verbose"])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        #expect(chat(of: login) == "connected")
        #expect(login.stderr.contains("chat: xmpps://\(startTLSPort) answered in plain text, not TLS: trying STARTTLS on the same port"))
        #expect(login.stderr.contains("chat: connected to xmpps://\(startTLSPort) with STARTTLS"))
        // The sandbox saw the TLS attempt as bad input, and then the STARTTLS session.
        try sandbox.waitForLog(containing: "closed: stream error not-well-formed (bad input)", timeout: 10)
    }

    /// libstrophe's handshake would wait for ever; chatctl gives up at its 15 s chat timeout.
    @Test func xmppsToAServerThatNeverFinishesTheHandshakeExits75() throws {
        let sandbox = try SandboxProcess()
        let silent = try LoopbackListener()  // the kernel completes TCP; nobody ever answers
        let endpoint = "xmpps://127.0.0.1:\(silent.port)"
        let cli = try ChatctlRunner(configPath: try config(sandbox, chat: endpoint))
        let started = Date()
        let login = try cli.login(uniqueLogin(), password: "silent-tls-1", timeout: 60)
        let elapsed = Date().timeIntervalSince(started)
        #expect(!login.timedOut)
        #expect(login.status == 75, "stderr: \(login.stderr)")
        #expect(login.stderr.split(separator: "\n").count == 1, "one line: \(login.stderr)")
        #expect(login.stderr.contains(endpoint))
        #expect(login.stderr.contains("did not complete the login in time"))
        #expect(elapsed < 20, "took \(elapsed) s")
    }
}
