import Foundation
import Diagnostics
import Testing
import ClientConfiguration
import HTTPTransport
import QuickBloxAPI
import XMPPTransport
import TestSupport
@testable import AuthFlow

/// docs/protocol.md §2 on the client: the session file follows the server's
/// sliding expiry, and a session the server forgot is renewed with the password.
@Suite struct RenewableSessionTests {
    static let gone = #"{"errors":{"base":["Required session does not exist"]}}"#
    static let renewed = #"{"session":{"id":9,"application_id":1,"user_id":5,"token":"new-token","nonce":1,"ts":1}}"#
    static let dialogs = #"{"total_entries":0,"skip":0,"limit":100,"items":[]}"#
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    let directory: TemporaryDirectory
    let store: SessionStore
    let config: ClientConfig

    init() throws {
        directory = try TemporaryDirectory()
        store = SessionStore(directory: directory.path + "/state", key: "k")
        config = ClientConfig(path: "/c.json", credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                              apiEndpoint: "http://127.0.0.1:9", chatEndpoint: ChatEndpoint(parsing: "xmpp://127.0.0.1:5222")!,
                              chatDomain: "localhost")
    }

    func stored(token: String = "old-token", expiresAt: Double = 1_800_000_000 + 3600) -> StoredSession {
        StoredSession(token: token, expiresAt: expiresAt, loggedInAt: 1_799_990_000, userId: 5, login: "alice",
                      user: ["id": .int(5), "login": .string("alice")], applicationId: 1,
                      apiEndpoint: "http://127.0.0.1:9", chatEndpoint: "xmpp://127.0.0.1:5222")
    }

    func session(_ transport: ScriptedTransport, password: String? = "alice-pass-1",
                 asked: Flag? = nil) throws -> RenewableSession {
        try store.save(stored())
        return RenewableSession(stored(), config: config, store: store, transport: transport,
                                password: { _ in asked?.set(); return password }, now: { Self.now })
    }

    // MARK: extending

    @Test func aMeaningfulExtensionIsWrittenAndASmallOneOnlyRemembered() throws {
        let live = try session(ScriptedTransport([]))
        // Two hours left: the file follows once the expiry moved a minute.
        live.sessionExtended(until: Self.now.addingTimeInterval(3600 + 30))
        #expect(live.stored.expiresAt == 1_800_000_000 + 3630)
        #expect(try store.load()?.expiresAt == 1_800_000_000 + 3600, "30 s gained: not worth a write")
        live.sessionExtended(until: Self.now.addingTimeInterval(3600 + 61))
        #expect(try store.load()?.expiresAt == 1_800_000_000 + 3661)
        #expect(try store.load()?.token == "old-token")
    }

    @Test func aShortSessionFollowsInSmallSteps() throws {
        try store.save(stored(expiresAt: 1_800_000_001))
        let short = RenewableSession(stored(expiresAt: 1_800_000_001), config: config, store: store,
                                     transport: ScriptedTransport([]), password: { _ in nil }, now: { Self.now })
        short.sessionExtended(until: Self.now.addingTimeInterval(2))
        #expect(try store.load()?.expiresAt == 1_800_000_002, "a second of two is a tenth and more")
        #expect(RenewableSession.writeThreshold(remaining: 7200) == 60)
        #expect(RenewableSession.writeThreshold(remaining: 2) == 0.2)
        #expect(RenewableSession.writeThreshold(remaining: -5) == 0)
    }

    @Test func neverWritesOverAnotherSessionOrBringsBackALoggedOutOne() throws {
        let live = try session(ScriptedTransport([]))
        try store.save(stored(token: "someone-elses"))
        live.sessionExtended(until: Self.now.addingTimeInterval(7200))
        #expect(try store.load()?.token == "someone-elses")
        #expect(try store.load()?.expiresAt == 1_800_000_000 + 3600)
        try store.remove()
        live.sessionExtended(until: Self.now.addingTimeInterval(7300))
        #expect(try store.load() == nil)
    }

    // MARK: renewing

    @Test func aGoneSessionIsRenewedWithThePasswordAndSaved() throws {
        let transport = ScriptedTransport([reply(201, Self.renewed, headers: [HTTPHeader("QB-Token-ExpirationDate", "2027-01-15 10:00:00 UTC")])])
        let asked = Flag()
        let live = try session(transport, asked: asked)
        let error = QuickBloxError(kind: .http(status: 401), request: "GET x", reasons: ["Required session does not exist"])
        let fresh = try #require(try live.renewSession(after: error))
        #expect(asked.isSet)
        #expect(fresh.token == "new-token")
        #expect(transport.paths == ["POST session.json"], "same user: no need to fetch it again")
        let body = try JSONDecoder().decode(JSONValue.self, from: Data(transport.requests[0].body))
        #expect(body["user"] == ["login": "alice", "password": "alice-pass-1"])
        let saved = try #require(try store.load())
        #expect(saved.token == "new-token")
        #expect(saved.login == "alice" && saved.userId == 5)
        #expect(saved.expiresAt == fresh.expiresAt.timeIntervalSince1970)
        #expect(live.renewals == 1)
        #expect(!String(decoding: try Data(contentsOf: URL(fileURLWithPath: store.path)), as: UTF8.self).contains("alice-pass-1"))
    }

    @Test func withoutAPasswordNothingIsAskedOfTheServer() throws {
        let transport = ScriptedTransport([])
        let live = try session(transport, password: nil)
        let error = QuickBloxError(kind: .http(status: 401), request: "GET x", reasons: ["Required session does not exist"])
        #expect(try live.renewSession(after: error) == nil)
        #expect(transport.requests.isEmpty)
        #expect(try store.load()?.token == "old-token", "kept, so that a later command with a password can renew it")
    }

    @Test func aPasswordThatNoLongerWorksIsNotTakenForAGoneSession() throws {
        let transport = ScriptedTransport([reply(401, #"{"errors":["Unauthorized"]}"#)])
        let live = try session(transport)
        let error = QuickBloxError(kind: .http(status: 401), request: "GET x", reasons: ["Required session does not exist"])
        let failure = try #require(throws: QuickBloxError.self) { try live.renewSession(after: error) }
        #expect(failure.status == 401)
        #expect(failure.reasons == ["renewing the session as 'alice' failed: Unauthorized"])
        #expect(!failure.isSessionGone)
        #expect(!failure.description.contains("alice-pass-1"))
    }

    @Test func aSessionAnotherChatctlRenewedIsTakenOver() throws {
        let transport = ScriptedTransport([])
        let live = try session(transport)
        try store.save(stored(token: "renewed-elsewhere", expiresAt: 1_800_000_000 + 7000))
        let error = QuickBloxError(kind: .http(status: 401), request: "GET x", reasons: ["Required session does not exist"])
        let fresh = try #require(try live.renewSession(after: error))
        #expect(fresh.token == "renewed-elsewhere")
        #expect(transport.requests.isEmpty)
        #expect(live.renewals == 0)
    }

    // MARK: through the keeper's client

    @Test func aCommandsRequestIsRepeatedOnceAfterTheRenewal() throws {
        let transport = ScriptedTransport([reply(401, Self.gone), reply(201, Self.renewed), reply(200, Self.dialogs)])
        try store.save(stored())
        let keeper = SessionKeeper(config: config, store: store, transport: transport, now: { Self.now })
        let (live, client) = try keeper.liveSession(checked: .byFirstRequest, password: { _ in "alice-pass-1" })
        client.retryPolicy = .never
        #expect(try client.allDialogs().isEmpty)
        #expect(transport.paths == ["GET Dialog.json?limit=100&skip=0&sort_desc=last_message_date_sent", "POST session.json",
                                    "GET Dialog.json?limit=100&skip=0&sort_desc=last_message_date_sent"])
        #expect(transport.requests.map { $0.header("QB-Token") } == ["old-token", nil, "new-token"])
        #expect(live.stored.token == "new-token")
        #expect(try store.load()?.token == "new-token")
    }

    @Test func withoutAPasswordTheCommandHearsTheSessionExpired() throws {
        let transport = ScriptedTransport([reply(401, Self.gone)])
        try store.save(stored())
        let keeper = SessionKeeper(config: config, store: store, transport: transport, now: { Self.now })
        let error = try #require(throws: Failure.self) {
            _ = try keeper.liveSession(checked: .now, password: { _ in nil })
        }
        #expect(error.kind == .authentication)
        #expect(error.message.contains("expired"))
        #expect(error.hint?.contains("CHATCTL_PASSWORD") == true)
    }

    @Test func statusSeesTheExtendedExpiry() throws {
        let session = #"{"session":{"id":1,"application_id":1,"user_id":5,"token":"old-token"}}"#
        let transport = ScriptedTransport([reply(200, session, headers: [HTTPHeader("QB-Token-ExpirationDate", "2027-01-15 10:00:00 UTC")])])
        try store.save(stored())
        let keeper = SessionKeeper(config: config, store: store, transport: transport, now: { Self.now })
        let (live, _) = try keeper.liveSession(checked: .now, password: { _ in nil })
        let expected = try #require(QBTimestamp.parse("2027-01-15 10:00:00 UTC")).timeIntervalSince1970
        #expect(live.stored.expiresAt == expected)
        #expect(try store.load()?.expiresAt == expected)
    }
}
