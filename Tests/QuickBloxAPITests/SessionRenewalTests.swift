#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport

/// Records what the client tells it and answers renewals from a script.
final class RecordingRenewal: SessionRenewing {
    var extensions: [Date] = []
    var renewals: [QuickBloxError] = []
    /// nil: "no password at hand".
    var fresh: QBSession?
    var failure: QuickBloxError?

    init(fresh: QBSession? = nil, failure: QuickBloxError? = nil) { self.fresh = fresh; self.failure = failure }

    func sessionExtended(until expiresAt: Date) { extensions.append(expiresAt) }

    func renewSession(after error: QuickBloxError) throws(QuickBloxError) -> QBSession? {
        renewals.append(error)
        if let failure { throw failure }
        return fresh
    }
}

/// docs/protocol.md §2 and §4: sliding expiry, renewal on a gone session, and which requests repeat.
@Suite struct SessionRenewalTests {
    static let gone = #"{"errors":{"base":["Required session does not exist"]}}"#
    static let dialogs = #"{"total_entries":0,"skip":0,"limit":100,"items":[]}"#
    static let later = Date(timeIntervalSince1970: 1_900_000_000)

    func client(_ transport: ScriptedTransport, renewal: RecordingRenewal?) -> QuickBloxClient {
        let api = QuickBloxClient(apiEndpoint: QuickBloxClientTests.endpoint, credentials: QuickBloxClientTests.app, transport: transport)
        api.retryPolicy = .immediate
        api.token = "old-token"
        api.sessionRenewal = renewal
        return api
    }

    @Test func everySuccessReportsTheServersExpiryInEitherForm() throws {
        let transport = ScriptedTransport([
            reply(200, QuickBloxClientTests.userBody, headers: [HTTPHeader("QB-Token-ExpirationDate", "2016-04-11 16:29:04 UTC")]),
            reply(200, QuickBloxClientTests.userBody, headers: [HTTPHeader("QB-Token-ExpirationDate", "2016-04-11 18:29:04 +0000")]),
            reply(200, QuickBloxClientTests.userBody),
        ])
        let renewal = RecordingRenewal()
        let api = client(transport, renewal: renewal)
        for _ in 0..<3 { _ = try api.user(id: 7) }
        #expect(renewal.extensions.count == 3)
        #expect(renewal.extensions[0] == Date(timeIntervalSince1970: 1_460_392_144))
        #expect(renewal.extensions[1] == Date(timeIntervalSince1970: 1_460_392_144 + 7200))
        // No header: two hours from now.
        #expect(abs(renewal.extensions[2].timeIntervalSinceNow - 7200) < 60)
        #expect(api.tokenExpiresAt == renewal.extensions[2])
    }

    @Test func failuresAndTokenlessRequestsExtendNothing() throws {
        let transport = ScriptedTransport([
            reply(404, #"{"errors":["The resource wasn't found"]}"#),
            reply(200, #"{"api_endpoint":"https://a.example.com","chat_endpoint":"c.example.com"}"#),
        ])
        let renewal = RecordingRenewal()
        let api = client(transport, renewal: renewal)
        #expect(throws: QuickBloxError.self) { try api.user(id: 7) }
        api.token = nil
        _ = try api.accountSettings(accountKey: "k")
        #expect(renewal.extensions.isEmpty)
        #expect(api.tokenExpiresAt == nil)
    }

    @Test func aGoneSessionIsRenewedAndTheRequestRepeatedOnceWithTheNewToken() throws {
        let transport = ScriptedTransport([reply(401, Self.gone), reply(200, Self.dialogs)])
        let renewal = RecordingRenewal(fresh: QBSession(token: "new-token", applicationId: 22, userId: 7, expiresAt: Self.later))
        let api = client(transport, renewal: renewal)
        let dialogs = try api.allDialogs(DialogQuery())
        #expect(dialogs.isEmpty)
        #expect(renewal.renewals.count == 1)
        #expect(renewal.renewals[0].reasons == ["Required session does not exist"])
        #expect(transport.requests.map { $0.header("QB-Token") } == ["old-token", "new-token"])
        #expect(transport.requests[0].url == transport.requests[1].url)
        #expect(api.token == "new-token")
    }

    @Test(arguments: [#"{"errors":["Token is required"]}"#, #"{"errors":["Session expired"]}"#])
    func otherWordingsOfAGoneSessionAreRenewedToo(body: String) throws {
        let transport = ScriptedTransport([reply(401, body), reply(200, QuickBloxClientTests.userBody)])
        let renewal = RecordingRenewal(fresh: QBSession(token: "new-token", applicationId: 22, userId: 7, expiresAt: Self.later))
        _ = try client(transport, renewal: renewal).user(id: 7)
        #expect(renewal.renewals.count == 1)
    }

    @Test func onlyOnceEvenWhenTheNewSessionIsRefusedToo() throws {
        let transport = ScriptedTransport([reply(401, Self.gone), reply(401, Self.gone), reply(200, QuickBloxClientTests.userBody)])
        let renewal = RecordingRenewal(fresh: QBSession(token: "new-token", applicationId: 22, userId: 7, expiresAt: Self.later))
        let error = try #require(throws: QuickBloxError.self) { try client(transport, renewal: renewal).user(id: 7) }
        #expect(error.status == 401)
        #expect(renewal.renewals.count == 1)
        #expect(transport.requests.count == 2)
    }

    @Test func wrongCredentialsAreNotASessionToRenew() throws {
        let transport = ScriptedTransport([reply(401, #"{"errors":["Unauthorized"]}"#)])
        let renewal = RecordingRenewal(fresh: QBSession(token: "new-token", applicationId: 22, userId: 7, expiresAt: Self.later))
        let api = client(transport, renewal: renewal)
        let error = try #require(throws: QuickBloxError.self) {
            try api.logIn(UserCredentials(identity: .login("alice"), password: "wrong-pass-1"))
        }
        #expect(error.reasons == ["Unauthorized"])
        #expect(!error.isSessionGone)
        #expect(renewal.renewals.isEmpty)
    }

    @Test func noPasswordAtHandLeavesTheOriginal401() throws {
        let transport = ScriptedTransport([reply(401, Self.gone)])
        let renewal = RecordingRenewal(fresh: nil)
        let error = try #require(throws: QuickBloxError.self) { try client(transport, renewal: renewal).user(id: 7) }
        #expect(error.isSessionGone)
        #expect(error.request == "GET http://127.0.0.1:8080/users/7.json")
        #expect(renewal.renewals.count == 1)
        #expect(transport.requests.count == 1)
    }

    @Test func aFailedRenewalIsWhatTheCallerHears() throws {
        let transport = ScriptedTransport([reply(401, Self.gone)])
        let failure = QuickBloxError(kind: .transport(.cannotConnect), request: "POST http://127.0.0.1:8080/session.json", reasons: ["refused"])
        let renewal = RecordingRenewal(failure: failure)
        let error = try #require(throws: QuickBloxError.self) { try client(transport, renewal: renewal).user(id: 7) }
        #expect(error.kind == .transport(.cannotConnect))
        #expect(error.request.hasSuffix("/session.json"))
    }

    @Test func withoutARenewalA401IsTheCallers() throws {
        let transport = ScriptedTransport([reply(401, Self.gone)])
        let error = try #require(throws: QuickBloxError.self) { try client(transport, renewal: nil).user(id: 7) }
        #expect(error.isSessionGone)
        #expect(transport.requests.count == 1)
    }

    // MARK: which requests repeat (docs/protocol.md §4)

    @Test(arguments: [502, 503, 504])
    func aMessagePostIsNeverRepeatedBlindlyAfterAServerError(status: Int) throws {
        let transport = ScriptedTransport([reply(status), reply(201, #"{"_id":"5f1e2d3c4b5a697887766554"}"#)])
        let api = client(transport, renewal: nil)
        let error = try #require(throws: QuickBloxError.self) {
            try api.sendMessage(dialogId: "d1", text: "hello")
        }
        #expect(error.status == status)
        #expect(transport.requests.count == 1, "the POST may have been stored: the caller checks before sending again")
    }

    @Test func aRateLimitedPostIsRepeated() throws {
        let transport = ScriptedTransport([reply(429), reply(201, #"{"_id":"5f1e2d3c4b5a697887766554"}"#)])
        let message = try client(transport, renewal: nil).sendMessage(dialogId: "d1", text: "hello")
        #expect(message.id == "5f1e2d3c4b5a697887766554")
        #expect(transport.requests.count == 2)
    }

    @Test func idempotentRequestsAndSessionsAreRepeated() throws {
        let transport = ScriptedTransport([reply(503), reply(200, Self.dialogs), reply(502), reply(201, QuickBloxClientTests.sessionBody)])
        let api = client(transport, renewal: nil)
        _ = try api.allDialogs(DialogQuery())
        _ = try api.createSession()
        #expect(transport.requests.count == 4)
    }
}
