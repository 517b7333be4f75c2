// The real chatctl-sandbox binary, REST only (`--no-chat`), driven over sockets.
import Foundation
import Testing
import TestSupport

/// A REST-only sandbox; `extra` adds flags.
func restSandbox(_ extra: [String] = []) throws -> SandboxProcess {
    try SandboxProcess(arguments: ["--no-chat"] + extra)
}

@Suite struct SessionSignatureTests {
    @Test(arguments: [SandboxSignatureAlgorithm.sha1, .sha256])
    func signedSessionIsCreated(algorithm: SandboxSignatureAlgorithm) throws {
        let sandbox = try restSandbox()
        let params = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: sandbox.authKey,
                                                      secret: sandbox.authSecret, algorithm: algorithm)
        let r = try sandbox.response(method: "POST", path: "/session.json", params: params)
        #expect(r.status == 201)
        let session = try #require((r.json as? [String: Any])?["session"] as? [String: Any])
        let token = try #require(session["token"] as? String)
        #expect(token.count == 40 && token.allSatisfy(\.isHexDigit))
        #expect(session["user_id"] as? Int == 0)
        #expect(session["application_id"] as? Int == sandbox.applicationId)
        for key in ["id", "nonce", "ts", "created_at", "updated_at"] { #expect(session[key] != nil, "missing \(key)") }
        let expiry = try #require(r.headers["qb-token-expirationdate"])
        #expect(expiry.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$"#, options: .regularExpression) != nil)
    }

    @Test func wrongSecretIsAnUnexpectedSignature() throws {
        let sandbox = try restSandbox()
        let params = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: sandbox.authKey,
                                                      secret: sandbox.authSecret + "x")
        let r = try sandbox.request(method: "POST", path: "/session.json", params: params)
        #expect(r.status == 422)
        #expect(r.body == #"{"errors":{"base":["Unexpected signature"]}}"#)
    }

    @Test func tamperedParameterIsAnUnexpectedSignature() throws {
        let sandbox = try restSandbox()
        var params = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: sandbox.authKey,
                                                      secret: sandbox.authSecret)
        params[2].1 = String((Int(params[2].1) ?? 0) + 1)   // the nonce
        let r = try sandbox.request(method: "POST", path: "/session.json", params: params)
        #expect(r.status == 422 && r.body.contains("Unexpected signature"))
    }

    @Test func unknownApplicationIsRefused() throws {
        let sandbox = try restSandbox()
        let params = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId + 1, authKey: sandbox.authKey,
                                                      secret: sandbox.authSecret)
        let r = try sandbox.request(method: "POST", path: "/session.json", params: params)
        #expect(r.status == 422)
        #expect(r.body == #"{"errors":{"base":["No application found"]}}"#)
    }

    @Test(arguments: [-3700, 3700])
    func clockOffByMoreThanAnHourIsRefused(offset: Int) throws {
        let sandbox = try restSandbox()
        let now = Int(Date().timeIntervalSince1970)
        let bad = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: sandbox.authKey,
                                                   secret: sandbox.authSecret, timestamp: now + offset)
        let r = try sandbox.request(method: "POST", path: "/session.json", params: bad)
        #expect(r.status == 422)
        // Within the hour is fine.
        let ok = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: sandbox.authKey,
                                                  secret: sandbox.authSecret, timestamp: now + offset.signum() * 3500)
        #expect(try sandbox.request(method: "POST", path: "/session.json", params: ok).status == 201)
    }

    @Test func replayedNonceAndTimestampIsRefused() throws {
        let sandbox = try restSandbox()
        let params = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: sandbox.authKey,
                                                      secret: sandbox.authSecret)
        #expect(try sandbox.request(method: "POST", path: "/session.json", params: params).status == 201)
        let replay = try sandbox.request(method: "POST", path: "/session.json", params: params)
        #expect(replay.status == 422)
        #expect(replay.body.contains("base"))
    }

    @Test func jsonSessionBodyWithNestedUserOpensAUserSession() throws {
        let sandbox = try restSandbox()
        let id = try signUpUser(on: sandbox, login: "jsonann", password: "annpass-1")
        let ts = Int(Date().timeIntervalSince1970), nonce = Int.random(in: 1...1_000_000)
        let signed = SandboxSigning.sessionParameters(
            applicationId: sandbox.applicationId, authKey: sandbox.authKey, secret: sandbox.authSecret,
            nonce: nonce, timestamp: ts, extra: [("user[login]", "jsonann"), ("user[password]", "annpass-1")])
        let signature = try #require(signed.last?.1)
        let body = """
            {"application_id":\(sandbox.applicationId),"auth_key":"\(sandbox.authKey)","nonce":\(nonce),\
            "timestamp":\(ts),"user":{"login":"jsonann","password":"annpass-1"},"signature":"\(signature)"}
            """
        // A stale QB-Token on a new session request is ignored.
        let r = try sandbox.send(method: "POST", path: "/session.json", body: body, contentType: "application/json",
                                 token: String(repeating: "0", count: 40))
        #expect(r.status == 201)
        let session = try #require((r.json as? [String: Any])?["session"] as? [String: Any])
        #expect(session["user_id"] as? Int == id)
    }

    @Test func sessionWithBadUserCredentialsIsUnauthorized() throws {
        let sandbox = try restSandbox()
        _ = try signUpUser(on: sandbox, login: "carol", password: "carolpass1")
        #expect(throws: (any Error).self) { try sandbox.createSession(login: "carol", password: "wrongpass1") }
        let params = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: sandbox.authKey,
                                                      secret: sandbox.authSecret,
                                                      extra: [("user[login]", "carol"), ("user[password]", "wrongpass1")])
        let r = try sandbox.request(method: "POST", path: "/session.json", params: params)
        #expect(r.status == 401)
        #expect(r.body == #"{"errors":["Unauthorized"]}"#)
        #expect(try !sandbox.createSession(login: "carol", password: "carolpass1").isEmpty)
    }

    @Test func getAndDeleteSession() throws {
        let sandbox = try restSandbox()
        let token = try sandbox.createSession()
        let got = try sandbox.response(method: "GET", path: "/session.json", token: token)
        #expect(got.status == 200)
        // Bare, as the reference and QuickBlox's JS SDK (`QB.getSession`) have it.
        #expect((got.json as? [String: Any])?["token"] as? String == token)
        #expect((got.json as? [String: Any])?["session"] == nil)
        let deleted = try sandbox.request(method: "DELETE", path: "/session.json", token: token)
        #expect(deleted.status == 200 && deleted.body.isEmpty)
        let after = try sandbox.request(method: "GET", path: "/session.json", token: token)
        #expect(after.status == 401)
        #expect(after.body == #"{"errors":{"base":["Required session does not exist"]}}"#)
    }
}

@Suite struct UserEndpointTests {
    @Test func loginTakenIsThe422OfTheProtocol() throws {
        let sandbox = try restSandbox()
        _ = try signUpUser(on: sandbox, login: "dave", password: "davepass1")
        let token = try sandbox.createSession()
        let r = try sandbox.request(method: "POST", path: "/users.json",
                                    params: [("user[login]", "dave"), ("user[password]", "otherpass1")], token: token)
        #expect(r.status == 422)
        #expect(r.body == #"{"errors":{"login":["has already been taken"]}}"#)
    }

    @Test func emailTakenNamesTheEmail() throws {
        let sandbox = try restSandbox()
        let token = try sandbox.createSession()
        let first = try sandbox.request(method: "POST", path: "/users.json", params: [
            ("user[login]", "erin"), ("user[password]", "erinpass1"), ("user[email]", "erin@example.com")], token: token)
        #expect(first.status == 201)
        let r = try sandbox.request(method: "POST", path: "/users.json", params: [
            ("user[login]", "erin2"), ("user[password]", "erinpass1"), ("user[email]", "erin@example.com")], token: token)
        #expect(r.status == 422)
        #expect(r.body == #"{"errors":{"email":["has already been taken"]}}"#)
    }

    @Test(arguments: ["short1", "has spaces 123"])
    func weakPasswordIsA422OnPassword(password: String) throws {
        let sandbox = try restSandbox()
        let token = try sandbox.createSession()
        let r = try sandbox.response(method: "POST", path: "/users.json",
                                     params: [("user[login]", "frank"), ("user[password]", password)], token: token)
        #expect(r.status == 422)
        #expect(((r.json as? [String: Any])?["errors"] as? [String: Any])?["password"] != nil)
    }

    @Test func formAndJSONBodiesBothSignUpAndLogIn() throws {
        let sandbox = try restSandbox()
        let token = try sandbox.createSession()
        // Form, with characters that need percent-encoding.
        let form = try sandbox.response(method: "POST", path: "/users.json", params: [
            ("user[login]", "gina+g&x=1"), ("user[password]", "p&ss=w+rd1"), ("user[full_name]", "Gina Ä")], token: token)
        #expect(form.status == 201)
        let formUser = try #require((form.json as? [String: Any])?["user"] as? [String: Any])
        #expect(formUser["login"] as? String == "gina+g&x=1")
        #expect(formUser["full_name"] as? String == "Gina Ä")
        for key in ["id", "login", "full_name", "email", "phone", "website", "external_user_id", "custom_data",
                    "created_at", "updated_at", "last_request_at"] {
            #expect(formUser.keys.contains(key), "user JSON lacks \(key)")
        }
        #expect((formUser["created_at"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
        // JSON.
        let json = try sandbox.send(method: "POST", path: "/users.json",
                                    body: #"{"user":{"login":"hank","password":"hankpass1","email":"h@example.com"}}"#,
                                    contentType: "application/json", token: token)
        #expect(json.status == 201)
        // Log in with JSON, then with a form.
        let login = try sandbox.send(method: "POST", path: "/login.json", body: #"{"login":"hank","password":"hankpass1"}"#,
                                     contentType: "application/json", token: token)
        #expect(login.status == 202)
        #expect(((login.json as? [String: Any])?["user"] as? [String: Any])?["login"] as? String == "hank")
        let session = try sandbox.response(method: "GET", path: "/session.json", token: token)
        #expect((session.json as? [String: Any])?["user_id"] as? Int
                == ((json.json as? [String: Any])?["user"] as? [String: Any])?["id"] as? Int)
        let byForm = try sandbox.request(method: "POST", path: "/login.json",
                                         params: [("login", "gina+g&x=1"), ("password", "p&ss=w+rd1")], token: token)
        #expect(byForm.status == 202)
        let byEmail = try sandbox.request(method: "POST", path: "/login.json",
                                          params: [("email", "h@example.com"), ("password", "hankpass1")], token: token)
        #expect(byEmail.status == 202)
        #expect(try sandbox.request(method: "DELETE", path: "/login.json", token: token).status == 200)
        let after = try sandbox.response(method: "GET", path: "/session.json", token: token)
        #expect((after.json as? [String: Any])?["user_id"] as? Int == 0)
    }

    @Test func unauthorizedBodies() throws {
        let sandbox = try restSandbox()
        _ = try signUpUser(on: sandbox, login: "ivy", password: "ivypass12")
        let token = try sandbox.createSession()
        let bad = try sandbox.request(method: "POST", path: "/login.json",
                                      params: [("login", "ivy"), ("password", "ivypass13")], token: token)
        #expect(bad.status == 401 && bad.body == #"{"errors":["Unauthorized"]}"#)
        let unknown = try sandbox.request(method: "POST", path: "/login.json",
                                          params: [("login", "nobody"), ("password", "ivypass12")], token: token)
        #expect(unknown.status == 401 && unknown.body == #"{"errors":["Unauthorized"]}"#)
        let noToken = try sandbox.request(method: "GET", path: "/users.json")
        #expect(noToken.status == 401 && noToken.body == #"{"errors":["Token is required"]}"#)
        let badToken = try sandbox.request(method: "GET", path: "/users.json", token: String(repeating: "a", count: 40))
        #expect(badToken.status == 401 && badToken.body == #"{"errors":{"base":["Required session does not exist"]}}"#)
        let notFound = try sandbox.request(method: "GET", path: "/no/such/thing.json", token: token)
        #expect(notFound.status == 404 && notFound.body == #"{"errors":["The resource wasn't found"]}"#)
    }

    @Test func lookupsAndListing() throws {
        let sandbox = try restSandbox()
        let ids = try ["u1", "u2", "u3"].map { try signUpUser(on: sandbox, login: $0, password: "password\($0)") }
        let token = try sandbox.createSession()
        let byId = try sandbox.response(method: "GET", path: "/users/\(ids[1]).json", token: token)
        #expect(((byId.json as? [String: Any])?["user"] as? [String: Any])?["login"] as? String == "u2")
        let byLogin = try sandbox.response(method: "GET", path: "/users/by_login.json", params: [("login", "u3")], token: token)
        #expect(((byLogin.json as? [String: Any])?["user"] as? [String: Any])?["id"] as? Int == ids[2])
        #expect(try sandbox.request(method: "GET", path: "/users/999.json", token: token).status == 404)
        #expect(try sandbox.request(method: "GET", path: "/users/by_login.json", params: [("login", "zz")], token: token).status == 404)
        let page = try sandbox.response(method: "GET", path: "/users.json", params: [("page", "2"), ("per_page", "2")], token: token)
        let list = try #require(page.json as? [String: Any])
        #expect(list["current_page"] as? Int == 2 && list["per_page"] as? Int == 2 && list["total_entries"] as? Int == 3)
        #expect((list["items"] as? [[String: Any]])?.count == 1)
        // A form Content-Type on a bodiless GET is fine.
        let filtered = try sandbox.send(method: "GET", path: "/users.json",
                                        query: "filter%5B%5D=number+id+in+\(ids[0]),\(ids[2])",
                                        contentType: "application/x-www-form-urlencoded", token: token)
        let items = try #require((filtered.json as? [String: Any])?["items"] as? [[String: Any]])
        #expect(items.compactMap { ($0["user"] as? [String: Any])?["id"] as? Int } == [ids[0], ids[2]])
    }
}

@Suite struct SlidingExpiryTests {
    /// `--token-ttl` on the real clock, so time must pass (the sliding itself is unit-tested
    /// with a hand-moved clock): 1.5 s, well above a request's time on a loaded machine.
    @Test func tokenStaysAliveWhileUsedAndExpiresWhenIdle() throws {
        let ttl = 1.5
        let sandbox = try restSandbox(["--token-ttl", String(ttl)])
        let token = try sandbox.createSession()
        let created = Date()
        var lastUse = created
        // Used every 0.25 s until it is older than its TTL, yet alive.
        while Date().timeIntervalSince(created) < ttl + 0.5 {
            usleep(250_000)
            let r = try sandbox.response(method: "GET", path: "/session.json", token: token)
            lastUse = Date()
            #expect(r.status == 200)
            #expect(r.headers["qb-token-expirationdate"] != nil)
        }
        // Idle: the server slid it at most to lastUse + TTL.
        try waitUntil("a TTL since the token's last use", timeout: 10) { Date().timeIntervalSince(lastUse) > ttl }
        let expired = try sandbox.request(method: "GET", path: "/session.json", token: token)
        #expect(expired.status == 401)
        #expect(expired.body == #"{"errors":{"base":["Required session does not exist"]}}"#)
    }
}

@Suite struct HostileInputTests {
    func stillServes(_ sandbox: SandboxProcess) throws {
        #expect(try sandbox.request(method: "GET", path: "/users.json").status == 401)
        #expect(try !sandbox.createSession().isEmpty)
    }

    func statusOrClosed(_ data: [UInt8]) -> Int? {
        (try? parseHTTPResponse(data))?.status
    }

    @Test func garbageBytesGetA4xxOrAClosedConnection() throws {
        let sandbox = try restSandbox()
        let (host, port) = sandbox.apiHostPort
        var garbage = [UInt8](repeating: 0, count: 4096)
        for i in garbage.indices { garbage[i] = UInt8.random(in: 0...255) }
        for payload in [garbage, Array("GARBAGE\r\n\r\n".utf8), Array("GET /\u{0}x HTTP/9.9\r\nHost\r\n\r\n".utf8),
                        Array("POST /users.json HTTP/1.1\r\nContent-Length: -5\r\n\r\n".utf8)] {
            let (data, closed) = try rawTCPExchange(host: host, port: port, bytes: payload, timeout: 10)
            if let status = statusOrClosed(data) { #expect((400..<500).contains(status)) } else { #expect(closed) }
        }
        try stillServes(sandbox)
    }

    @Test func malformedJSONAndFormAre400s() throws {
        let sandbox = try restSandbox()
        let token = try sandbox.createSession()
        for body in [#"{"user":{"login":"x""#, "{{{{", #"{"user":"\u12"}"#, String(repeating: "[", count: 10_000)] {
            let r = try sandbox.send(method: "POST", path: "/users.json", body: body, contentType: "application/json", token: token)
            #expect(r.status == 400)
            #expect((r.json as? [String: Any])?["errors"] is [String])
        }
        let badSession = try sandbox.send(method: "POST", path: "/session.json", body: "{nope", contentType: "application/json")
        #expect(badSession.status == 400)
        try stillServes(sandbox)
    }

    @Test func twoMebibyteBodyIsRefused() throws {
        let sandbox = try restSandbox()
        let (host, port) = sandbox.apiHostPort
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20)
        let head = "POST /users.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let (data, closed) = try rawTCPExchange(host: host, port: port, bytes: Array(head.utf8) + body, timeout: 10)
        if let status = statusOrClosed(data) { #expect(status == 413) } else { #expect(closed) }
        try stillServes(sandbox)
    }

    @Test func oversizeHeadersAreRefused() throws {
        let sandbox = try restSandbox()
        let (host, port) = sandbox.apiHostPort
        let head = "GET /users.json HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 100_000))\r\n\r\n"
        let (data, closed) = try rawTCPExchange(host: host, port: port, bytes: Array(head.utf8), timeout: 10)
        if let status = statusOrClosed(data) { #expect((400..<500).contains(status)) } else { #expect(closed) }
        try stillServes(sandbox)
    }

    @Test func silentClientDoesNotBlockOthersAndIsDropped() throws {
        let sandbox = try restSandbox(["--http-timeout", "1"])
        let (host, port) = sandbox.apiHostPort
        let started = Date()
        // Says half a request line, then nothing; connected and sent before we are served.
        let idle = try TCPConnection(host: host, port: port)
        idle.send(Array("GET /users".utf8))
        try stillServes(sandbox)
        let result = idle.readUntilClosed(timeout: 8)
        #expect(result.closedByPeer, "the silent connection was never closed")
        #expect(Date().timeIntervalSince(started) < 7)
        try stillServes(sandbox)
    }

    @Test func disallowedMethodIsRefused() throws {
        let sandbox = try restSandbox()
        let r = try sandbox.send(method: "PATCH", path: "/users.json")
        #expect((400..<500).contains(r.status))
        try stillServes(sandbox)
    }
}

@Suite struct SandboxCommandLineTests {
    @Test(arguments: [["--bogus"], ["--api-port", "70000"], ["--token-ttl", "x"], ["--token-ttl", "0"], ["--token-ttl", "-1"], ["--log-level", "loud"],
                      ["--tls-cert", "/tmp/c.pem"], ["--host"], ["stray"], ["--ws-port", "-1"], ["--chat-tls-port", "x"],
                      ["--no-chat", "--ws-port", "0"]])
    func badFlagsExitTwoWithOneLineThenUsage(arguments: [String]) throws {
        let r = try runProcess(productPath("chatctl-sandbox"), arguments, timeout: 20)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        // As chatctl's own (the same CommandLineKit): what was wrong, then the usage with every
        // option spelled out (wrapped), never a bare [<options>].
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 3 && lines.last?.isEmpty == true && !r.stderr.contains("[<options>]"), "stderr: \(r.stderr)")
        #expect(lines.first?.hasPrefix("chatctl-sandbox: ") == true)
        #expect(lines.count > 1 && lines[1].hasPrefix("usage: chatctl-sandbox"))
    }

    @Test func helpAndVersion() throws {
        let help = try runProcess(productPath("chatctl-sandbox"), ["--help"], timeout: 20)
        #expect(help.status == 0)
        for flag in ["--host", "--api-port", "--chat-port", "--db", "--app-id", "--auth-key", "--auth-secret",
                     "--account-key", "--chat-domain", "--token-ttl", "--tls-cert", "--tls-key", "--log-level",
                     "--chat-tls-port", "--ws-port"] {
            #expect(help.stdout.contains(flag), "help lacks \(flag)")
        }
        let version = try runProcess(productPath("chatctl-sandbox"), ["--version"], timeout: 20)
        #expect(version.status == 0 && version.stdout.hasPrefix("chatctl-sandbox "))
    }

    @Test func restOnlySandboxStopsCleanlyOnSIGTERMAndSIGINT() throws {
        for signal in [SIGTERM, SIGINT] {
            let sandbox = try restSandbox(["--app-id", "7", "--auth-key", "k", "--auth-secret", "s"])
            #expect(sandbox.applicationId == 7 && sandbox.authKey == "k" && sandbox.authSecret == "s")
            #expect(try !sandbox.createSession().isEmpty)
            kill(sandbox.process.processIdentifier, signal)
            try #require(sandbox.waitForExit(timeout: 10), "still running 10 s after signal \(signal)")
            #expect(sandbox.process.terminationReason == .exit)
            #expect(sandbox.process.terminationStatus == 0)
        }
    }

    @Test func databaseFilePersistsUsersAcrossRestarts() throws {
        let dir = try TemporaryDirectory(prefix: "sandbox-db")
        let db = dir.file("sandbox.sqlite")
        do {
            let sandbox = try restSandbox(["--db", db])
            _ = try signUpUser(on: sandbox, login: "persisted", password: "persist-1")
            #expect(sandbox.stop() == 0)
        }
        let again = try restSandbox(["--db", db])
        #expect(try again.createSession(login: "persisted", password: "persist-1").count == 40)
    }
}
