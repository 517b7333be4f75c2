import Diagnostics
import Testing
import HTTPTransport
import QuickBloxAPI
import XMPPTransport
import TestSupport
@testable import AuthFlow

final class FakeChat: ChatConnecting {
    var failure: XMPPError?
    var connectedAs: (Int, String)?
    /// What happened, in order: "prepare", "connect".
    var calls: [String] = []
    /// Runs at `prepare()` (to see how far the REST part was then).
    var onPrepare: (() -> Void)?
    func prepare() { calls.append("prepare"); onPrepare?() }
    func connect(userId: Int, secret: String) throws(XMPPError) {
        calls.append("connect")
        if let failure { throw failure }
        connectedAs = (userId, secret)
    }
}

@Suite struct LoginRunnerTests {
    static let session = #"{"session":{"id":1,"application_id":1,"user_id":0,"token":"tok123","nonce":1,"ts":1}}"#
    static let user = #"{"user":{"id":42,"login":"alice","full_name":"Alice"}}"#
    static let taken = #"{"errors":{"login":["has already been taken"]}}"#

    func run(_ replies: [ScriptedTransport.Reply], chat: FakeChat? = FakeChat(), options: LoginFlow.Options = .init())
        -> (Result<LoginResult, Failure>, ScriptedTransport) {
        let transport = ScriptedTransport(replies)
        let api = QuickBloxClient(apiEndpoint: "http://127.0.0.1:9", credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                                  transport: transport)
        api.retryPolicy = .never
        let runner = LoginRunner(api: api, chat: chat)
        let request = LoginRequest(identity: .login("alice"), password: "secret-pass", fullName: "Alice", options: options)
        return (Result { () throws(Failure) in try runner.run(request) }, transport)
    }

    @Test func signUpOk() throws {
        let chat = FakeChat()
        let (result, transport) = run([.status(201, Self.session), .status(201, Self.user), .status(202, Self.user)], chat: chat)
        let login = try result.get()
        #expect(login.signedUp && login.chat == .connected && login.user.id == 42)
        #expect(transport.paths == ["POST session.json", "POST users.json", "POST login.json"])
        #expect(chat.connectedAs?.0 == 42 && chat.connectedAs?.1 == "tok123", "chat password is the session token")
    }

    @Test func takenLoginLogsIn() throws {
        let (result, transport) = run([.status(201, Self.session), .status(422, Self.taken), .status(202, Self.user)])
        let login = try result.get()
        #expect(!login.signedUp && login.chat == .connected)
        #expect(transport.paths == ["POST session.json", "POST users.json", "POST login.json"])
    }

    @Test func wrongPasswordIsAuthentication() {
        let (result, _) = run([.status(201, Self.session), .status(422, Self.taken), .status(401, #"{"errors":["Unauthorized"]}"#)])
        guard case .failure(let error) = result else { Issue.record("expected failure"); return }
        #expect(error.kind == .authentication)
        #expect(error.message.contains("Unauthorized"))
        #expect(!error.description.contains("secret-pass"))
    }

    @Test func networkErrorIsTemporaryAndNamesTheEndpoint() {
        let (result, transport) = run([.failure(.cannotConnect)])
        guard case .failure(let error) = result else { Issue.record("expected failure"); return }
        #expect(error.kind == .temporary)
        #expect(error.message.contains("http://127.0.0.1:9"))
        #expect(transport.requests.count == 1)
    }

    @Test func invalidSignUpIsInvalidInput() {
        let (result, _) = run([.status(201, Self.session), .status(422, #"{"errors":{"password":["is too short"]}}"#)])
        guard case .failure(let error) = result else { Issue.record("expected failure"); return }
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("password is too short"))
    }

    @Test func chatFailureKeepsTheRESTLogin() throws {
        let chat = FakeChat()
        chat.failure = XMPPError(kind: .cannotConnect, endpoint: "xmpp://127.0.0.1:5", detail: "refused")
        let (result, _) = run([.status(201, Self.session), .status(422, Self.taken), .status(202, Self.user)], chat: chat)
        let login = try result.get()
        guard case .failed(let error) = login.chat else { Issue.record("chat should have failed"); return }
        #expect(error.kind == .temporary && error.message.contains("xmpp://127.0.0.1:5"))
        #expect(login.token == "tok123")
    }

    /// The chat head start (`ChatHeadStart`) begins before any REST request, once.
    @Test func chatIsPreparedBeforeTheFirstRequestThenConnected() throws {
        let transport = ScriptedTransport([.status(201, Self.session), .status(422, Self.taken), .status(202, Self.user)])
        let api = QuickBloxClient(apiEndpoint: "http://127.0.0.1:9", credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                                  transport: transport)
        api.retryPolicy = .never
        let chat = FakeChat()
        var requestsWhenPrepared: Int?
        chat.onPrepare = { requestsWhenPrepared = transport.requests.count }
        let request = LoginRequest(identity: .login("alice"), password: "secret-pass", fullName: "Alice", options: .init())
        #expect(try LoginRunner(api: api, chat: chat).run(request).chat == .connected)
        #expect(requestsWhenPrepared == 0)
        #expect(chat.calls == ["prepare", "connect"])
    }

    @Test func noChatPreparesNothing() throws {
        let chat = FakeChat()
        let (result, _) = run([.status(201, Self.session), .status(422, Self.taken), .status(202, Self.user)], chat: chat,
                              options: .init(connectChat: false))
        #expect(try result.get().chat == .skipped)
        #expect(chat.calls.isEmpty)
    }

    @Test func aRESTFailureNeverConnectsWhatWasPrepared() {
        let chat = FakeChat()
        let (result, _) = run([.status(201, Self.session), .status(422, Self.taken), .status(401, #"{"errors":["Unauthorized"]}"#)], chat: chat)
        #expect(throws: Failure.self) { try result.get() }
        #expect(chat.calls == ["prepare"])
    }

    @Test func noSignupNeverCallsUsers() throws {
        let (result, transport) = run([.status(201, Self.session), .status(202, Self.user)], chat: nil,
                                      options: .init(allowSignUp: false))
        #expect(try result.get().chat == .skipped)
        #expect(transport.paths == ["POST session.json", "POST login.json"])
    }
}
