// Wrong passwords counted per client address (docs/protocol.md §4): one address off loopback
// trying one password against many users is refused after `--login-attempts-per-address`, on REST
// and chat alike, while another address and session tokens carry on. Loopback, which every client
// of a test suite shares, is limited per user only.
import Foundation
import Testing
import TestSupport

@Suite struct LoginAddressLimitProcessTests {
    /// `POST /session.json` logging `login` in with `password`, from `source` to `host` (nil: 127.0.0.1 to 127.0.0.1).
    private func logIn(_ sandbox: SandboxProcess, _ login: String, _ password: String, from source: String? = nil,
                       to host: String? = nil) throws -> SandboxHTTPResponse {
        let params = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: sandbox.authKey, secret: sandbox.authSecret,
                                                       extra: [("user[login]", login), ("user[password]", password)])
        guard let source else { return try sandbox.response(method: "POST", path: "/session.json", params: params) }
        let port = sandbox.apiHostPort.port, host = host ?? source
        let body = Array(SandboxSigning.formEncode(params).utf8)
        let head = "POST /session.json HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\n\r\n"
        let connection = try TCPConnection(host: host, port: port, source: source)
        connection.send(Array(head.utf8) + body)
        return try parseHTTPResponse(connection.readUntilClosed(timeout: 10).data)
    }

    /// One SASL PLAIN exchange on a fresh stream from `source` (nil: 127.0.0.1); what the server answered.
    private func chatLogIn(_ sandbox: SandboxProcess, userId: Int, _ secret: String, from source: String? = nil) throws -> String {
        let port = URLComponents(string: sandbox.chatEndpoint)?.port ?? 0
        let client = try RawXMPPClient(port: port, host: source ?? "127.0.0.1", source: source)
        client.send(XMPPTestConstants.header)
        try #require(client.read(untilContains: "</stream:features>"))
        client.send(XMPPTestConstants.plain("\(userId)-\(sandbox.applicationId)", secret))
        try #require(client.read(until: { $0.contains("</failure>") || $0.contains("<success") }), "got \(client.received)")
        return client.received
    }

    @Test func oneAddressTryingManyUsersIsRefusedAnotherAddressIsNot() throws {
        // Listening on every address, so that a client can come from one outside loopback.
        let outside = try LocalAddress.nonLoopbackIPv4()
        let sandbox = try SandboxProcess(arguments: ["--host", "0.0.0.0", "--login-attempts-per-address", "3"])
        let tag = UInt32.random(in: 0...UInt32.max)
        let logins = (1...4).map { "spray\(tag)x\($0)" }, password = "right-password-1"
        let ids = try logins.map { try signUpUser(on: sandbox, login: $0, password: password) }
        // Right passwords, as a test suite logging in its users gives them, count for nothing.
        for _ in 0..<5 { #expect(try logIn(sandbox, logins[3], password, from: outside).status == 201) }
        let token = try sandbox.createSession(login: logins[3], password: password)

        // Three wrong passwords against three users, once each, over REST and chat.
        #expect(try logIn(sandbox, logins[0], "guess-1", from: outside).status == 401)
        #expect(try logIn(sandbox, logins[1], "guess-1", from: outside).status == 401)
        #expect(try chatLogIn(sandbox, userId: ids[2], "guess-1", from: outside).contains("<not-authorized/>"))

        let limited = try logIn(sandbox, logins[3], password, from: outside)
        #expect(limited.status == 429, "a fourth user's right password from the same address: \(limited.body)")
        let retryAfter = try #require(limited.headers["retry-after"].flatMap { Int($0) })
        #expect((1...60).contains(retryAfter))
        #expect(limited.body.contains("Too many failed login attempts"))
        #expect(try logIn(sandbox, "nobody\(tag)", "guess-1", from: outside).status == 429, "a login of nobody too")
        #expect(try chatLogIn(sandbox, userId: ids[3], password, from: outside).contains("<temporary-auth-failure/>"))
        // A session token is no guess: it still opens the chat from the limited address.
        #expect(try chatLogIn(sandbox, userId: ids[3], token, from: outside).contains("<success"))

        // Another client, here on loopback, is not held up.
        let elsewhere = try logIn(sandbox, logins[3], password, from: "127.0.0.1", to: outside)
        #expect(elsewhere.status == 201, "from 127.0.0.1: \(elsewhere.body)")
    }

    /// A test suite on the sandbox's machine logs in many users, some with wrong passwords on
    /// purpose: its next right login is never refused for the address they share. Each user is
    /// still limited.
    @Test func onLoopbackOnlyEachUserIsLimited() throws {
        let sandbox = try SandboxProcess(arguments: ["--login-attempts-per-address", "3", "--login-attempts", "2"])
        let tag = UInt32.random(in: 0...UInt32.max)
        let logins = (1...6).map { "suite\(tag)x\($0)" }, password = "right-password-1"
        let ids = try logins.map { try signUpUser(on: sandbox, login: $0, password: password) }
        for login in logins.prefix(5) { #expect(try logIn(sandbox, login, "wrong-on-purpose").status == 401) }
        #expect(try chatLogIn(sandbox, userId: ids[4], "wrong-on-purpose").contains("<not-authorized/>"))
        #expect(try logIn(sandbox, "nobody\(tag)", "guess-1").status == 401)
        #expect(try logIn(sandbox, logins[5], password).status == 201, "seven wrong logins from loopback, past its address limit of 3")
        #expect(try chatLogIn(sandbox, userId: ids[5], password).contains("<success"))
        // The user given two wrong passwords waits, whatever the address.
        let limited = try logIn(sandbox, logins[4], password)
        #expect(limited.status == 429, "\(limited.body)")
        #expect(try chatLogIn(sandbox, userId: ids[4], password).contains("<temporary-auth-failure/>"))
    }

    /// QuickBlox's SDKs reconnect every few seconds with the token they logged in with: once that
    /// session is gone each try is refused, none is counted, and the password still works.
    @Test func reconnectingWithAnEndedSessionsTokenLocksNobodyOut() throws {
        let sandbox = try SandboxProcess(arguments: ["--login-attempts", "2"])
        let login = "stale\(UInt32.random(in: 0...UInt32.max))", password = "right-password-1"
        let id = try signUpUser(on: sandbox, login: login, password: password)
        let token = try sandbox.createSession(login: login, password: password)
        #expect(try chatLogIn(sandbox, userId: id, token).contains("<success"))
        #expect(try sandbox.send(method: "DELETE", path: "/session.json", token: token).status == 200)
        for _ in 0..<6 { #expect(try chatLogIn(sandbox, userId: id, token).contains("<not-authorized/>")) }
        #expect(try chatLogIn(sandbox, userId: id, password).contains("<success"))
        #expect(try logIn(sandbox, login, password).status == 201)
    }
}
