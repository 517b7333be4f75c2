import Foundation
import Testing
import TestSupport

/// Servers that answer wrongly, or are not who they say. Each ends chatctl with
/// one line on stderr and the documented exit code, quickly, never a crash or a hang.
@Suite(.serialized) struct HostileServerEndToEndTests {
    /// A config of the sandbox's, with the REST endpoint replaced by `api`.
    static func config(from sandbox: SandboxProcess, api: String, chat: String? = nil, chatDomain: String? = nil,
                       in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("hostile-\(UInt32.random(in: 0...UInt32.max)).json")
        var base = sandbox.config
        if let chatDomain { base["chatDomain"] = chatDomain }
        try ProxiedSandbox.writeConfig(base, api: api, chat: chat ?? sandbox.chatEndpoint, to: path)
        return path
    }

    static func directTLS(of sandbox: SandboxProcess) throws -> URL {
        let text = (sandbox.config["endpoints"] as? [String: Any])?["chatDirectTLS"] as? String ?? ""
        guard let url = URL(string: text), url.port != nil else { throw TestSupportError("no chatDirectTLS endpoint in \(sandbox.configLine)") }
        return url
    }

    static func lines(_ stderr: String) -> [Substring] { stderr.split(separator: "\n") }

    /// `POST /session.json` (login's first request) answered with `response`.
    func loginAgainst(_ response: [UInt8]) throws -> (ProcessResult, ScriptedHTTPServer) {
        let sandbox = try SandboxProcess()
        let server = try ScriptedHTTPServer { _, connection in
            connection.send(response)
            connection.close()
        }
        let directory = try TemporaryDirectory()
        let cli = try ChatctlRunner(configPath: try Self.config(from: sandbox, api: server.baseURL(), in: directory))
        let result = try cli.login(uniqueLogin("hostile"), password: ChatUser.password, timeout: 30)
        return (result, server)
    }

    @Test(arguments: [
        ("not JSON at all", Array("<html>oops</html>".utf8)),
        ("JSON cut short", Array("{\"session\":{\"token\":".utf8)),
        ("a token of the wrong type", Array("{\"session\":{\"token\":42,\"user_id\":\"seven\"}}".utf8)),
        ("an array instead of an object", Array("[1,2,3]".utf8)),
    ])
    func garbageOrWrongTypesAreOneLineAndExit1(what: String, body: [UInt8]) throws {
        let (result, server) = try loginAgainst(ScriptedHTTPServer.response(201, "Created", headers: [("Content-Type", "application/json")], body: body))
        defer { server.stop() }
        #expect(result.status == 1, "\(what): stderr: \(result.stderr)")
        #expect(Self.lines(result.stderr).count == 1, "\(what): one line: \(result.stderr)")
        #expect(result.stderr.contains("unexpected answer from POST \(server.baseURL())/session.json"), "\(what): \(result.stderr)")
    }

    @Test func aHundredMegabyteBodyIsRefusedWithoutReadingIt() throws {
        let pushed = ResultBox<Int>()
        let sandbox = try SandboxProcess()
        let server = try ScriptedHTTPServer { _, connection in
            connection.send("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"session\":{\"token\":\"")
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
            var sent = 0
            while sent < 100 << 20, connection.sendCounting(chunk) == chunk.count { sent += chunk.count }
            pushed.append(sent)
            connection.close()
        }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let cli = try ChatctlRunner(configPath: try Self.config(from: sandbox, api: server.baseURL(), in: directory))
        let started = Date()
        let result = try cli.login(uniqueLogin("big"), password: ChatUser.password, timeout: 30)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(Self.lines(result.stderr).count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.contains("the answer is larger than 16 MiB; refused"), "stderr: \(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
        let sent = try #require(pushed.wait(count: 1, timeout: 20).first)
        #expect(sent < 100 << 20, "chatctl stopped reading at its limit")
    }

    @Test func aRedirectToAnotherHostIsNotFollowed() throws {
        let elsewhere = try ScriptedHTTPServer { _, connection in
            connection.send(ScriptedHTTPServer.response(201, "Created", body: Array("{\"session\":{\"token\":\"stolen\"}}".utf8)))
        }
        defer { elsewhere.stop() }
        let (result, server) = try loginAgainst(ScriptedHTTPServer.response(
            307, "Temporary Redirect", headers: [("Location", elsewhere.baseURL(host: "localhost") + "/session.json")]))
        defer { server.stop() }
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(Self.lines(result.stderr).first?.contains("(307 from POST") == true, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("does not follow redirects"))
        #expect(elsewhere.requests.isEmpty, "nothing, and no credentials, went to the other host")
    }

    // MARK: - A certificate for another name

    /// The sandbox's certificate names localhost and 127.0.0.1; a proxy on 127.0.0.2
    /// reaches the same TLS server by a name it does not carry.
    @Test func restTLSToTheWrongNameIsRefused() throws {
        let sandbox = try SandboxProcess(arguments: ["--chat-tls-port", "0"])
        let directTLS = try Self.directTLS(of: sandbox)
        let proxy = try FaultProxy(upstreamPort: try #require(directTLS.port), host: "127.0.0.2")
        defer { proxy.stop() }
        let directory = try TemporaryDirectory()
        let cli = try ChatctlRunner(configPath: try Self.config(from: sandbox, api: "https://127.0.0.2:\(proxy.port)", in: directory))
        let result = try cli.login(uniqueLogin("name"), password: ChatUser.password, timeout: 30)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let first = String(Self.lines(result.stderr).first ?? "")
        #expect(first.contains("TLS to https://127.0.0.2:\(proxy.port)/session.json failed"), "stderr: \(result.stderr)")
        #expect(first.contains("127.0.0.2"), "curl names the host the certificate lacks: \(first)")
        #expect(proxy.counters.connectionsAccepted >= 1)
    }

    /// XMPP checks the certificate against the service's domain (RFC 6120 §13.7.2), not
    /// the host dialled: a chatDomain the certificate does not name must be refused,
    /// through the same proxy that passes with the domain it does name.
    @Test func chatTLSForAnotherDomainIsRefusedAndTheRightDomainPasses() throws {
        let sandbox = try SandboxProcess(arguments: ["--chat-tls-port", "0"])
        let directTLS = try Self.directTLS(of: sandbox)
        let proxy = try FaultProxy(upstreamPort: try #require(directTLS.port))
        defer { proxy.stop() }
        let directory = try TemporaryDirectory()
        let chat = "xmpps://127.0.0.1:\(proxy.port)"

        let refused = try ChatctlRunner(configPath: try Self.config(from: sandbox, api: sandbox.apiEndpoint, chat: chat,
                                                                    chatDomain: "chat.example.invalid", in: directory))
        let result = try refused.login(uniqueLogin("name"), password: ChatUser.password, timeout: 30)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let first = String(Self.lines(result.stderr).first ?? "")
        #expect(first.hasPrefix("chatctl: chat connect: TLS to \(chat) failed: certificate verification failed"),
                "stderr: \(result.stderr)")

        let accepted = try ChatctlRunner(configPath: try Self.config(from: sandbox, api: sandbox.apiEndpoint, chat: chat, in: directory))
        let fine = try accepted.login(uniqueLogin("name"), password: ChatUser.password, timeout: 30)
        #expect(fine.status == 0, "stderr: \(fine.stderr)")
    }
}
