import Foundation
import Testing
import TestSupport

/// A third-party XMPP client (Debian's go-sendxmpp, Go's TLS stack) against the
/// real `chatctl-sandbox` binary over STARTTLS. go-sendxmpp refuses to
/// authenticate without TLS, so passing means STARTTLS, SASL PLAIN, binding and
/// sending all work for a client this project did not write.
private let goSendXMPP = "/usr/bin/go-sendxmpp"

@Suite("chatctl-sandbox with go-sendxmpp", .serialized)
struct SandboxThirdPartyClientTests {
    init() throws {
        // Fail, never skip: `make test` installs it.
        try #require(FileManager.default.isExecutableFile(atPath: goSendXMPP),
                     "go-sendxmpp is not installed; `make test` installs it")
    }

    private struct Account {
        let sandbox: SandboxProcess
        let jid: String
        let password: String
        let server: String      // host:port of the XMPP listener
        let caFile: String
    }

    private func account(_ sandbox: SandboxProcess, login: String) throws -> Account {
        let password = "pass-\(login)-123"
        let userId = try signUpUser(on: sandbox, login: login, password: password)
        let appId = sandbox.config["appId"] as? Int ?? 1
        let domain = sandbox.config["chatDomain"] as? String ?? "localhost"
        let endpoint = try #require(URL(string: sandbox.chatEndpoint), "chat endpoint \(sandbox.chatEndpoint)")
        let host = try #require(endpoint.host), port = try #require(endpoint.port)
        return Account(sandbox: sandbox, jid: "\(userId)-\(appId)@\(domain)", password: password,
                       server: "\(host):\(port)", caFile: sandbox.config["caFile"] as? String ?? "")
    }

    private func send(from account: Account, password: String? = nil, to recipient: String,
                      arguments extra: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(goSendXMPP,
                       ["-u", account.jid, "-p", password ?? account.password, "-j", account.server, "--timeout", "10"] + extra + [recipient],
                       environment: environment, stdin: Data("hello from go-sendxmpp\n".utf8), timeout: 30)
    }

    @Test func logsInOverSTARTTLSAndSendsAMessage() throws {
        let sandbox = try SandboxProcess(arguments: ["--log-level", "debug"])
        defer { sandbox.stop() }
        let alice = try account(sandbox, login: "gosend-alice")
        let bob = try account(sandbox, login: "gosend-bob")

        // -n: skip certificate verification (the plain interop path).
        let skipVerify = try send(from: alice, to: bob.jid, arguments: ["-n"])
        #expect(!skipVerify.timedOut)
        #expect(skipVerify.status == 0, "go-sendxmpp -n: \(skipVerify.stderr)\nsandbox: \(sandbox.stderr)")

        // Verifying: Go trusts exactly the sandbox's caFile (SSL_CERT_FILE), names checked against the SANs.
        #expect(FileManager.default.fileExists(atPath: alice.caFile))
        let verified = try send(from: alice, to: bob.jid, arguments: [], environment: ["SSL_CERT_FILE": alice.caFile, "SSL_CERT_DIR": "/nonexistent"])
        #expect(verified.status == 0, "go-sendxmpp with caFile: \(verified.stderr)\nsandbox: \(sandbox.stderr)")
    }

    @Test func wrongPasswordExitsNonZero() throws {
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let carol = try account(sandbox, login: "gosend-carol")
        let result = try send(from: carol, password: "not-the-password", to: carol.jid, arguments: ["-n"])
        #expect(!result.timedOut)
        #expect(result.status != 0)
        #expect(result.stderr.contains("not-authorized"), "stderr: \(result.stderr)")
    }

    @Test func untrustedCertificateIsRefusedWithoutSkipVerify() throws {
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let dave = try account(sandbox, login: "gosend-dave")
        // No -n and no caFile: Go must reject the self-signed certificate.
        let result = try send(from: dave, to: dave.jid, arguments: [], environment: ["SSL_CERT_FILE": "/nonexistent", "SSL_CERT_DIR": "/nonexistent"])
        #expect(!result.timedOut)
        #expect(result.status != 0)
        #expect(result.stderr.contains("x509") || result.stderr.contains("certificate"), "stderr: \(result.stderr)")
    }
}
