import Foundation
import Testing
import TestSupport

/// The real `chatctl login` with its chat half against a real XMPP server
/// (Prosody), the REST half against the sandbox. Prosody knows nothing of
/// QuickBlox tokens, so the config uses `"chatAuth": "password"` — the other
/// variant the protocol allows.
@Suite(.serialized) struct ChatctlProsodyLoginTests {
    func chatctl(_ arguments: [String], config: String, state: TemporaryDirectory, password: String) throws -> ProcessResult {
        try runProcess(productPath("chatctl"), arguments, environment: ["CHATCTL_CONFIG": config, "CHATCTL_STATE_DIR": state.path],
                       stdin: Data((password + "\n").utf8), timeout: 60)
    }

    @Test func loginConnectsToProsodyOverVerifiedSTARTTLS() throws {
        let sandbox = try SandboxProcess()
        let login = "prosody" + String(Int.random(in: 100_000...999_999))
        let userId = try signUpUser(on: sandbox, login: login, password: "interop-pass-1")
        let prosody = try ProsodyServer(security: .tls, users: [(name: "\(userId)-\(sandbox.applicationId)", password: "interop-pass-1")])
        let dir = try TemporaryDirectory()
        let path = try prosody.chatctlConfig(restFrom: sandbox, in: dir)

        let ok = try chatctl(["login", "--login", login, "--password-stdin", "--json"], config: path, state: dir, password: "interop-pass-1")
        #expect(ok.status == 0, "stderr: \(ok.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ok.stdout.utf8)) as? [String: Any])
        #expect(json["chat"] as? String == "connected")
        #expect(json["signed_up"] as? Bool == false)
    }

    @Test func prosodyRefusingTheChatPasswordExits4() throws {
        let sandbox = try SandboxProcess()
        let login = "prosody" + String(Int.random(in: 100_000...999_999))
        let userId = try signUpUser(on: sandbox, login: login, password: "interop-pass-2")
        // Registered in Prosody with another password: REST succeeds, chat must not.
        let prosody = try ProsodyServer(security: .tls, users: [(name: "\(userId)-\(sandbox.applicationId)", password: "different-pass")])
        let dir = try TemporaryDirectory()
        let path = try prosody.chatctlConfig(restFrom: sandbox, in: dir)
        let refused = try chatctl(["login", "--login", login, "--password-stdin"], config: path, state: dir, password: "interop-pass-2")
        #expect(refused.status == 4, "stderr: \(refused.stderr)")
        #expect(refused.stderr.contains("not-authorized"))
        #expect(!refused.stderr.contains("interop-pass-2"))
    }
}
