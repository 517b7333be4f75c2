import Foundation
import Diagnostics
import Testing
import ClientConfiguration
import HTTPTransport
import QuickBloxAPI
import TestSupport
import XMPPTransport
@testable import AuthFlow

/// A login from a session token: the server says whose session it is, chat connects with
/// the token, and once it expires with no password at hand the error says the token expired.
@Suite struct TokenLoginTests {
    static let token = "3f65c6b89d501006f767c48cbe40449fea97fcb5"
    static let userSession = #"{"_id":"4","id":4,"application_id":1,"user_id":42,"token":"\#(token)","nonce":1,"ts":1}"#
    static let applicationSession = #"{"_id":"3","id":3,"application_id":1,"user_id":0,"token":"\#(token)","nonce":1,"ts":1}"#
    static let otherApplication = #"{"_id":"5","id":5,"application_id":7,"user_id":42,"token":"\#(token)","nonce":1,"ts":1}"#
    static let user = #"{"user":{"id":42,"login":"alice","full_name":"Alice"}}"#
    static let gone = #"{"errors":{"base":["Required session does not exist"]}}"#

    func run(_ replies: [ScriptedTransport.Reply], chat: FakeChat? = FakeChat(), chatAuth: ClientConfig.ChatAuth = .token,
             connectChat: Bool = true) throws -> (Result<LoginResult, Failure>, ScriptedTransport) {
        let transport = ScriptedTransport(replies)
        let api = QuickBloxClient(apiEndpoint: "http://127.0.0.1:9", credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                                  transport: transport)
        api.retryPolicy = .never
        let runner = LoginRunner(api: api, chat: chat, chatAuth: chatAuth)
        let token = try SessionToken(reading: Self.token, from: "standard input")
        return (Result { () throws(Failure) in try runner.run(token: token, connectChat: connectChat) }, transport)
    }

    @Test func theServerSaysWhoseSessionItIsAndChatConnectsWithTheToken() throws {
        let chat = FakeChat()
        let (result, transport) = try run([reply(200, Self.userSession), reply(200, Self.user)], chat: chat)
        let login = try result.get()
        #expect(login.user.id == 42 && login.user.login == "alice" && login.token == Self.token)
        #expect(login.chat == .connected && !login.signedUp)
        #expect(transport.paths == ["GET session.json", "GET 42.json"])
        #expect(transport.requests.map { $0.header("QB-Token") } == [Self.token, Self.token])
        #expect(chat.calls == ["prepare", "connect"])
        #expect(chat.connectedAs?.0 == 42 && chat.connectedAs?.1 == Self.token)
    }

    @Test func withoutChatNothingConnects() throws {
        let chat = FakeChat()
        let (result, _) = try run([reply(200, Self.userSession), reply(200, Self.user)], chat: chat, connectChat: false)
        #expect(try result.get().chat == .skipped)
        #expect(chat.calls.isEmpty)
    }

    @Test func anUnknownOrExpiredTokenIsAnAuthenticationFailure() throws {
        let chat = FakeChat()
        let (result, transport) = try run([reply(401, Self.gone)], chat: chat)
        let error = try #require(throws: Failure.self) { try result.get() }
        #expect(error.kind == .authentication)
        #expect(error.message.hasPrefix("the session token is unknown or has expired (401 from GET http://127.0.0.1:9/session.json)"))
        #expect(!error.description.contains(Self.token))
        #expect(transport.paths == ["GET session.json"], "nothing else is asked")
        #expect(chat.connectedAs == nil)
    }

    @Test func anApplicationSessionCannotChat() throws {
        let (result, transport) = try run([reply(200, Self.applicationSession)])
        let error = try #require(throws: Failure.self) { try result.get() }
        #expect(error.kind == .authentication)
        #expect(error.message == "the session token is an application session, which belongs to no user and cannot chat")
        #expect(transport.paths == ["GET session.json"])
    }

    @Test func aTokenOfAnotherApplicationIsRefused() throws {
        let (result, _) = try run([reply(200, Self.otherApplication)])
        let error = try #require(throws: Failure.self) { try result.get() }
        #expect(error.kind == .authentication)
        #expect(error.message == "the session token belongs to application 7, not to this config's 1")
    }

    @Test func chatThatWantsThePasswordIsAFailedChatHalfNotAFailedLogin() throws {
        let chat = FakeChat()
        let (result, _) = try run([reply(200, Self.userSession), reply(200, Self.user)], chat: chat, chatAuth: .password)
        guard case .failed(let failure) = try result.get().chat else { Issue.record("chat should have failed"); return }
        #expect(failure.message.contains("chatAuth: password"))
        #expect(chat.connectedAs == nil)
    }

    @Test func theServerOutOfReachIsTemporary() throws {
        let (result, _) = try run([.failure(.cannotConnect)])
        let error = try #require(throws: Failure.self) { try result.get() }
        #expect(error.kind == .temporary)
    }

    // MARK: the saved session

    func store() throws -> (SessionStore, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        return (SessionStore(directory: directory.path + "/state", key: "k"), directory)
    }

    static let config = ClientConfig(path: "/c.json", credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                                     apiEndpoint: "http://127.0.0.1:9", chatEndpoint: ChatEndpoint(parsing: "xmpp://127.0.0.1:5222")!,
                                     chatDomain: "localhost")

    func tokenSession(expiresAt: Double = 1_800_003_600) -> StoredSession {
        StoredSession(token: Self.token, expiresAt: expiresAt, loggedInAt: 1_799_990_000, userId: 42, login: "alice",
                      user: ["id": .int(42), "login": .string("alice")], applicationId: 1,
                      apiEndpoint: "http://127.0.0.1:9", chatEndpoint: "xmpp://127.0.0.1:5222", method: .token)
    }

    @Test func theSessionFileSaysATokenMadeIt() throws {
        let (store, directory) = try store()
        try store.save(tokenSession())
        #expect(try store.load() == tokenSession())
        #expect(try store.load()?.method == .token)
        let text = String(decoding: try #require(PrivateFiles.read(store.path)), as: UTF8.self)
        #expect(text.contains(#""login_method":"token""#))
        _ = directory
    }

    @Test func aFileWithAnUnknownMethodIsUnreadable() throws {
        let (store, directory) = try store()
        try store.save(tokenSession())
        let text = String(decoding: try #require(PrivateFiles.read(store.path)), as: UTF8.self)
        try PrivateFiles.writeAtomically(store.path, Array(text.replacingOccurrences(of: #""token","#, with: #""magic","#).utf8))
        #expect(throws: Failure.self) { try store.load() }
        _ = directory
    }

    @Test func anExpiredTokenSessionWithoutAPasswordSaysHowToLogInAgain() throws {
        let (store, directory) = try store()
        try store.save(tokenSession())
        let transport = ScriptedTransport([reply(401, Self.gone)])
        let keeper = SessionKeeper(config: Self.config, store: store, transport: transport, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let error = try #require(throws: Failure.self) {
            _ = try keeper.liveSession(checked: .now, password: { _ in nil })
        }
        #expect(error.kind == .authentication)
        #expect(error.message.hasPrefix("check session: the session token has expired ("))
        #expect(error.hint == "log in again with 'chatctl login', or pass a new token with 'chatctl login --token-stdin'")
        #expect(!error.description.contains(Self.token))
        #expect(transport.paths == ["GET session.json"], "no renewal is tried")
        #expect(try store.load() == tokenSession(), "the file is kept, as for a password's session")
        _ = directory
    }

    @Test func aPasswordAtHandRenewsATokenSessionIntoAPasswordOne() throws {
        let (store, directory) = try store()
        try store.save(tokenSession())
        let renewed = #"{"session":{"id":9,"application_id":1,"user_id":42,"token":"new-token-0123456789","nonce":1,"ts":1}}"#
        let transport = ScriptedTransport([reply(401, Self.gone), reply(201, renewed), reply(200, Self.userSession)])
        let keeper = SessionKeeper(config: Self.config, store: store, transport: transport, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let (live, _) = try keeper.liveSession(checked: .now, password: { _ in "alice-pass-1" })
        #expect(live.stored.token == "new-token-0123456789")
        #expect(try store.load()?.method == .password)
        _ = directory
    }
}
