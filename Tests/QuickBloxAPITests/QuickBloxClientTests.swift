#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport

@Suite struct QuickBloxClientTests {
    static let endpoint = "http://127.0.0.1:8080"
    static let app = AppCredentials(applicationId: 22, authKey: "wJHd4cQSxpQGWx5", authSecret: "chatctl-test-secret")
    static let sessionBody = #"{"session":{"id":1,"application_id":22,"user_id":7,"nonce":1,"ts":1,"token":"tok-3f9a","created_at":"2019-09-08T17:24:11Z","updated_at":"2019-09-08T17:24:11Z"}}"#
    static let userBody = #"{"user":{"id":7,"login":"alice","full_name":"Alice A","email":null,"custom_data":null}}"#

    func client(_ transport: ScriptedTransport, retry: RetryPolicy = .immediate) -> QuickBloxClient {
        let client = QuickBloxClient(apiEndpoint: Self.endpoint + "/", credentials: Self.app, transport: transport)
        client.retryPolicy = retry
        return client
    }

    /// Rebuilds the string to sign from a sent session body, independently of the client.
    func expectValidSignature(_ body: JSONValue) {
        var pairs = [
            "application_id=\(body["application_id"]?.intValue ?? -1)",
            "auth_key=\(body["auth_key"]?.stringValue ?? "")",
            "nonce=\(body["nonce"]?.intValue ?? -1)",
            "timestamp=\(body["timestamp"]?.intValue ?? -1)",
        ]
        if let login = body["user"]?["login"]?.stringValue { pairs.append("user[login]=\(login)") }
        if let email = body["user"]?["email"]?.stringValue { pairs.append("user[email]=\(email)") }
        if let password = body["user"]?["password"]?.stringValue { pairs.append("user[password]=\(password)") }
        let message = pairs.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: "&")
        let expected = RequestSigner.hmacHex(algorithm: .hmacSHA1, key: Self.app.authSecret, message: message)
        #expect(body["signature"]?.stringValue == expected)
    }

    @Test func createSessionSignsAndStoresToken() throws {
        let transport = ScriptedTransport([reply(201, Self.sessionBody), reply(200, Self.userBody)])
        let api = client(transport)
        let session = try api.createSession(user: UserCredentials(identity: .login("alice"), password: "p@ss=w&rd"))
        #expect(session.token == "tok-3f9a")
        #expect(session.userId == 7)
        #expect(session.applicationId == 22)
        #expect(api.token == "tok-3f9a")

        let sent = transport.requests[0]
        #expect(sent.method == .post)
        #expect(sent.url == "http://127.0.0.1:8080/session.json")
        #expect(sent.header("QB-Token") == nil)
        #expect(sent.header("Content-Type") == "application/json")
        #expect(sent.header("QuickBlox-REST-API-Version") == "0.1.0")
        #expect(sent.header("QB-SDK") == "chatctl")
        let body = try transport.bodyJSON(0)
        #expect(body["application_id"] == .int(22))
        #expect(body["auth_key"] == .string("wJHd4cQSxpQGWx5"))
        #expect(body["user"] == ["login": "alice", "password": "p@ss=w&rd"])
        let timestamp = try #require(body["timestamp"]?.intValue)
        #expect(abs(Double(timestamp) - Date().timeIntervalSince1970) < 60)
        expectValidSignature(body)

        // Later requests carry the token.
        _ = try api.user(id: 7)
        #expect(transport.requests[1].header("QB-Token") == "tok-3f9a")
        #expect(transport.requests[1].url == "http://127.0.0.1:8080/users/7.json")
    }

    @Test func applicationSessionHasNoUserFields() throws {
        let transport = ScriptedTransport([reply(201, Self.sessionBody)])
        _ = try client(transport).createSession()
        let body = try transport.bodyJSON(0)
        #expect(body["user"] == nil)
        expectValidSignature(body)
    }

    @Test func signUpReturnsUser() throws {
        let transport = ScriptedTransport([reply(201, Self.userBody)])
        let api = client(transport)
        api.token = "tok-app"
        let user = try api.signUp(login: "alice", password: "Secret-99", fullName: "Alice A", email: nil)
        #expect(user.id == 7)
        #expect(user.login == "alice")
        #expect(user.fullName == "Alice A")
        #expect(user.email == nil)
        #expect(user.raw["custom_data"] == .null)
        #expect(transport.requests[0].url == "http://127.0.0.1:8080/users.json")
        #expect(transport.requests[0].header("QB-Token") == "tok-app")
        #expect(try transport.bodyJSON(0) == ["user": ["login": "alice", "password": "Secret-99", "full_name": "Alice A"]])
    }

    @Test func signUpTakenLogin() throws {
        let transport = ScriptedTransport([reply(422, #"{"errors":{"login":["has already been taken."]}}"#)])
        let error = try #require(throws: QuickBloxError.self) {
            try client(transport).signUp(login: "alice", password: "Secret-99", fullName: nil, email: nil)
        }
        #expect(error.isLoginTaken)
        #expect(error.kind == .http(status: 422))
        #expect(error.fieldErrors["login"] == ["has already been taken."])
        #expect(transport.requests.count == 1)
    }

    @Test func logInUnauthorizedDescriptionHasNoSecrets() throws {
        let transport = ScriptedTransport([reply(401, #"{"errors":["Unauthorized"]}"#)])
        let api = client(transport)
        api.token = "tok-secret-123"
        let error = try #require(throws: QuickBloxError.self) {
            try api.logIn(UserCredentials(identity: .login("alice"), password: "hunter2-pass"))
        }
        #expect(error.reasons == ["Unauthorized"])
        #expect(error.kind == .http(status: 401))
        #expect(error.description == "POST http://127.0.0.1:8080/login.json: 401 Unauthorized")
        #expect(!error.description.contains("hunter2"))
        #expect(!error.description.contains("tok-secret"))
        #expect(!"\(error)".contains("hunter2"))
        #expect(try transport.bodyJSON(0) == ["login": "alice", "password": "hunter2-pass"])
    }

    @Test func logInByEmailAccepts202() throws {
        let transport = ScriptedTransport([reply(202, Self.userBody)])
        let user = try client(transport).logIn(UserCredentials(identity: .email("a@example.com"), password: "pw"))
        #expect(user.id == 7)
        #expect(try transport.bodyJSON(0) == ["email": "a@example.com", "password": "pw"])
    }

    @Test func retriesBusyCreateSessionWithFreshNonce() throws {
        let transport = ScriptedTransport([reply(503), reply(503), reply(201, Self.sessionBody)])
        let sleeps = SleepLog()
        let api = client(transport, retry: sleeps.policy)
        let session = try api.createSession(user: UserCredentials(identity: .login("alice"), password: "pw"))
        #expect(session.token == "tok-3f9a")
        #expect(transport.requests.count == 3)
        let bodies = try (0..<3).map { try transport.bodyJSON($0) }
        #expect(Set(bodies.compactMap { $0["nonce"]?.intValue }).count == 3)
        #expect(Set(bodies.compactMap { $0["signature"]?.stringValue }).count == 3)
        bodies.forEach(expectValidSignature)
        // Exponential backoff from ~200 ms with ±50 % jitter.
        let delays = sleeps.recorded
        #expect(delays.count == 2)
        #expect(delays.count == 2 && (0.1...0.3).contains(delays[0]) && (0.2...0.6).contains(delays[1]))
    }

    @Test func givesUpAfterThreeAttempts() throws {
        let transport = ScriptedTransport([reply(503), reply(503), reply(503), reply(201, Self.sessionBody)])
        let error = try #require(throws: QuickBloxError.self) { try client(transport).createSession() }
        #expect(error.kind == .http(status: 503))
        #expect(error.reasons == ["HTTP 503 Service Unavailable"])
        #expect(transport.requests.count == 3)
    }

    @Test(arguments: [("1", 1.0), ("5", 5.0), ("0.5", 0.5)])
    func honoursRetryAfter(header: String, expected: Double) throws {
        let transport = ScriptedTransport([reply(429, headers: [HTTPHeader("Retry-After", header)]), reply(200, Self.userBody)])
        let sleeps = SleepLog()
        _ = try client(transport, retry: sleeps.policy).user(id: 7)
        #expect(sleeps.recorded == [expected])
    }

    /// A wait longer than the policy blocks for is not waited out in part (a retry
    /// sooner would be refused again): the error says when to come back.
    @Test func aLongRetryAfterGivesUpAtOnceAndSaysWhen() throws {
        let transport = ScriptedTransport([reply(429, headers: [HTTPHeader("Retry-After", "60")]), reply(200, Self.userBody)])
        let sleeps = SleepLog()
        let error = try #require(throws: QuickBloxError.self) { try client(transport, retry: sleeps.policy).user(id: 7) }
        #expect(error.kind == .http(status: 429))
        #expect(error.reasons.last == "the server asks to wait 60 s before trying again")
        #expect(sleeps.recorded.isEmpty)
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: ["nan", "Wed, 21 Oct 2015 07:28:00 GMT", "-1"])
    func unusableRetryAfterFallsBackToBackoff(header: String) throws {
        let transport = ScriptedTransport([reply(503, headers: [HTTPHeader("Retry-After", header)]), reply(200, Self.userBody)])
        let sleeps = SleepLog()
        _ = try client(transport, retry: sleeps.policy).user(id: 7)
        #expect(sleeps.recorded.count == 1 && (0.1...0.3).contains(sleeps.recorded[0]))
    }

    @Test func noRetryForClientErrorsOrConnectionFailures() throws {
        let refused = ScriptedTransport([.failure(.cannotConnect, detail: "Connection refused"), reply(201, Self.sessionBody)])
        let error = try #require(throws: QuickBloxError.self) { try client(refused).createSession() }
        #expect(error.kind == .transport(.cannotConnect))
        #expect(error.reasons == ["Connection refused"])
        #expect(refused.requests.count == 1)

        let bad = ScriptedTransport([reply(500), reply(200, Self.userBody)])
        #expect(throws: QuickBloxError.self) { try client(bad).user(id: 1) }
        #expect(bad.requests.count == 1)
    }

    @Test func tokenExpiryFromHeaderElseTwoHours() throws {
        let transport = ScriptedTransport([
            reply(201, Self.sessionBody, headers: [HTTPHeader("qb-token-expirationdate", "2018-07-11 17:33:09 +0000")]),
            reply(200, Self.userBody),
        ])
        let api = client(transport)
        let session = try api.createSession()
        let expected = Date(timeIntervalSince1970: 1531330389)
        #expect(session.expiresAt == expected)
        #expect(api.tokenExpiresAt == expected)

        _ = try api.user(id: 7)
        let expiry = try #require(api.tokenExpiresAt)
        #expect(abs(expiry.timeIntervalSinceNow - 7200) < 60)
    }

    @Test func deleteSessionForgetsToken() throws {
        let transport = ScriptedTransport([reply(201, Self.sessionBody), reply(200)])
        let api = client(transport)
        try api.createSession()
        try api.deleteSession()
        #expect(transport.requests[1].method == .delete)
        #expect(transport.requests[1].header("QB-Token") == "tok-3f9a")
        #expect(api.token == nil)
        #expect(api.tokenExpiresAt == nil)
    }

    @Test func userByLoginIsPercentEncoded() throws {
        let transport = ScriptedTransport([reply(200, Self.userBody)])
        _ = try client(transport).user(login: "a b&c=d+é")
        #expect(transport.requests[0].url == "http://127.0.0.1:8080/users/by_login.json?login=a%20b%26c%3Dd%2B%C3%A9")
        #expect(transport.requests[0].method == .get)
    }

    @Test func usersByIds() throws {
        let page = #"{"current_page":1,"per_page":10,"total_entries":2,"items":[{"user":{"id":1,"login":"a"}},{"user":{"id":2,"login":"b"}}]}"#
        let transport = ScriptedTransport([reply(200, page)])
        let result = try client(transport).users(ids: [1, 2], page: 1, perPage: 10)
        #expect(result.items.map(\.id) == [1, 2])
        #expect(result.totalEntries == 2)
        #expect(transport.requests[0].url == "http://127.0.0.1:8080/users.json?page=1&per_page=10&filter%5B%5D=number%20id%20in%201%2C2")
    }

    @Test func successWithoutExpectedObjectIsInvalidResponse() throws {
        let transport = ScriptedTransport([reply(200, "not json"), reply(200, "{}")])
        let api = client(transport)
        let first = try #require(throws: QuickBloxError.self) { try api.user(id: 1) }
        #expect(first.kind == .invalidResponse)
        let second = try #require(throws: QuickBloxError.self) { try api.user(id: 1) }
        #expect(second.kind == .invalidResponse)
        #expect(second.request == "GET http://127.0.0.1:8080/users/1.json")
    }
}

@Suite struct AccountSettingsTests {
    @Test func sendsAccountKeyAndReadsEndpoints() throws {
        let transport = ScriptedTransport([reply(200, #"{"account_id":1,"api_endpoint":"https://api.example.com","chat_endpoint":"chat.example.com"}"#)])
        let api = QuickBloxClient(apiEndpoint: "https://api.quickblox.com", credentials: QuickBloxClientTests.app, transport: transport)
        api.retryPolicy = .immediate
        let settings = try api.accountSettings(accountKey: "acc-key")
        #expect(settings.apiEndpoint == "https://api.example.com")
        #expect(settings.chatEndpoint == "chat.example.com")
        #expect(transport.requests[0].header("QB-Account-Key") == "acc-key")
        #expect(transport.requests[0].url == "https://api.quickblox.com/account_settings.json")
    }

    /// chatctl-sandbox names its chat domain in `chat_endpoint` (as the service names its host) and
    /// where its chat listens in `chat_url`: the URL wins.
    @Test func theSandboxsChatURLWinsOverItsChatDomain() throws {
        let transport = ScriptedTransport([reply(200, #"{"api_endpoint":"http://127.0.0.1:4000","chat_endpoint":"localhost","turnserver_endpoint":null,"chat_url":"xmpp://127.0.0.1:4001"}"#)])
        let api = QuickBloxClient(apiEndpoint: "http://127.0.0.1:4000", credentials: QuickBloxClientTests.app, transport: transport)
        let settings = try api.accountSettings(accountKey: "acc-key")
        #expect(settings.chatEndpoint == "xmpp://127.0.0.1:4001")
    }
}
