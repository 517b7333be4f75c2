import Foundation
import TestSupport
import SandboxLogging
import SandboxNetwork
import SandboxStorage
import SandboxXMPP

/// Passwords and tokens by user id; immutable, so it can cross to the loop thread.
final class FakeChatAuthenticator: ChatAuthenticator, Sendable {
    let secrets: [Int: Set<String>]
    init(_ secrets: [Int: Set<String>]) { self.secrets = secrets }
    func authenticateChat(userId: Int, secret: String) -> Bool { secrets[userId]?.contains(secret) ?? false }
}

enum XMPPTestConstants {
    static let domain = "localhost"
    static let applicationId = 7
    static let users: [Int: Set<String>] = [5: ["secret-5", "token-5"], 6: ["secret-6"]]
    static let header = "<?xml version='1.0'?><stream:stream to='localhost' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>"

    static func plain(_ authcid: String, _ password: String, authzid: String = "") -> String {
        let raw = Data((authzid + "\0" + authcid + "\0" + password).utf8).base64EncodedString()
        return "<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>\(raw)</auth>"
    }
}

/// An `XMPPServer` on its own event loop and thread, as the sandbox runs it.
/// The server is created, used and released on that thread only.
final class XMPPTestServer: @unchecked Sendable {
    private(set) var port = 0
    /// The direct-TLS and WebSocket listeners' ports, when asked for.
    private(set) var directTLSPort = 0
    private(set) var webSocketPort = 0
    private(set) var certificatePEM = ""
    private let lock = NSLock()
    private var stopRequested = false
    private var requests: [(XMPPServer) -> Void] = []
    private let finished = DispatchSemaphore(value: 0)
    private var startError: String?

    /// `loopAfterStop: false` releases the server right after `stop()`, as the
    /// sandbox does when it leaves its loop at once.
    /// Loop-thread only: the in-memory database behind the chat store.
    private var database: SandboxDatabase?
    private var store: ChatStore?

    /// `realUsers`: authenticate against the in-memory database (users made with `withStorage`)
    /// instead of the fixed `XMPPTestConstants.users`.
    /// `directTLS`, `webSockets`: also listen for TLS from the first byte, and for XMPP over WebSocket.
    init(limits: XMPPServer.Limits = XMPPServer.Limits(), loopAfterStop: Bool = true, realUsers: Bool = false,
         directTLS: Bool = false, webSockets: Bool = false) throws {
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            self.run(limits: limits, loopAfterStop: loopAfterStop, realUsers: realUsers, directTLS: directTLS,
                     webSockets: webSockets, ready: ready)
        }
        thread.start()
        guard ready.wait(timeout: .now() + 20) == .success else { throw TestFailure("the XMPP test server did not start within 20 s") }
        if let startError { _ = finished.wait(timeout: .now() + 20); throw TestFailure(startError) }
    }

    private func run(limits: XMPPServer.Limits, loopAfterStop: Bool, realUsers: Bool, directTLS: Bool, webSockets: Bool,
                     ready: DispatchSemaphore) {
        defer { finished.signal() }
        guard let loop = try? EventLoop() else { startError = "cannot create the event loop"; ready.signal(); return }
        // A ticking timer so the loop wakes up to see stop requests and queries.
        let tick = LoopEvent(loop: loop, .repeatingTimer) {}
        tick?.schedule(after: 0.01)
        do {
            let identity = try TLSIdentity.selfSigned(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
            let database = try SandboxDatabase(path: nil, tokenTTL: 7200)
            let store = ChatStore(database: database, applicationId: XMPPTestConstants.applicationId,
                                  chatDomain: XMPPTestConstants.domain)
            self.database = database
            self.store = store
            let authenticator: ChatAuthenticator = realUsers ? database : FakeChatAuthenticator(XMPPTestConstants.users)
            var server: XMPPServer? = try XMPPServer(
                loop: loop, host: "127.0.0.1", port: 0, domain: XMPPTestConstants.domain,
                applicationId: XMPPTestConstants.applicationId, tls: identity,
                authenticator: authenticator,
                log: SandboxLog(minimum: .error), limits: limits, store: store)
            port = server!.boundPort
            if directTLS { directTLSPort = try server!.listenForDirectTLS(host: "127.0.0.1", port: 0) }
            if webSockets { webSocketPort = try server!.listenForWebSockets(host: "127.0.0.1", port: 0) }
            certificatePEM = identity.certificatePEM
            ready.signal()
            while true {
                lock.lock()
                let stop = stopRequested
                let pending = requests
                requests = []
                lock.unlock()
                for request in pending { request(server!) }
                if stop { break }
                loop.runOnce()
            }
            server!.stop()
            let deadline = Date().addingTimeInterval(loopAfterStop ? 0.6 : 0)
            while Date() < deadline { loop.runOnce() }
            server = nil
            self.store = nil
            self.database = nil
        } catch {
            startError = "\(error)"
            ready.signal()
        }
    }

    /// Runs `body` on the loop thread and returns its result.
    func query<T: Sendable>(_ body: @escaping @Sendable (XMPPServer) -> T) -> T {
        let result = ResultBox<T>()
        lock.lock()
        requests.append { server in result.append(body(server)) }
        lock.unlock()
        guard let value = result.wait(timeout: 60).first else {
            preconditionFailure("the XMPP test server's loop did not run a query within 60 s")
        }
        return value
    }

    /// Runs `body` with the chat store and database on the loop thread.
    func withStorage<T: Sendable>(_ body: @escaping @Sendable (ChatStore, SandboxDatabase, XMPPServer) throws -> T) throws -> T {
        let outcome: Result<T, TestFailure> = query { [self] server in
            do { return .success(try body(self.store!, self.database!, server)) } catch { return .failure(TestFailure("\(error)")) }
        }
        return try outcome.get()
    }

    func stop() {
        lock.lock()
        let already = stopRequested
        stopRequested = true
        lock.unlock()
        if !already { _ = finished.wait(timeout: .now() + 20) }
    }

    deinit { stop() }
}

/// Set-up failures in these tests are TestSupport's one error type.
typealias TestFailure = TestSupportError

/// Ann and Bob signed up on a running sandbox with a private dialog, and Ann's raw chat
/// stream authenticated, bound and with stream management on: where the process tests of
/// the chat port's storage (a crash, a full disk) start.
struct AnnStreamsToBob {
    let annLogin: String
    let annToken: String
    let bob: Int
    let dialogId: String
    let client: RawXMPPClient
    let app: Int

    /// `suffix` keeps the logins apart from other tests' ("ann-\(suffix)").
    init(on sandbox: SandboxProcess, suffix: String) throws {
        annLogin = "ann-\(suffix)"
        let ann = try signUpUser(on: sandbox, login: annLogin, password: "password-ann")
        bob = try signUpUser(on: sandbox, login: "bob-\(suffix)", password: "password-bob")
        annToken = try sandbox.createSession(login: annLogin, password: "password-ann")
        guard let dialog = try sandbox.createDialog(token: annToken, type: 3, occupantIds: [bob])["_id"] as? String,
              let chatPort = sandbox.chatEndpoint.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw TestSupportError("no dialog, or no chat port in \(sandbox.chatEndpoint)")
        }
        dialogId = dialog
        app = sandbox.applicationId
        client = try RawXMPPClient(port: chatPort)
        guard client.authenticate(as: "\(ann)-\(app)", password: "password-ann") else { throw TestSupportError("ann could not authenticate") }
        client.send("<iq type='set' id='b'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq><enable xmlns='urn:xmpp:sm:3'/>")
        guard client.read(untilContains: "<enabled") else { throw TestSupportError("stream management was not enabled: \(client.received)") }
    }

    /// A chat message to Bob, saved to history.
    func message(id: String, _ text: String) -> String {
        "<message type='chat' to='\(bob)-\(app)@localhost' id='\(id)'><body>\(text)</body><extraParams xmlns='jabber:client'><save_to_history>1</save_to_history><dialog_id>\(dialogId)</dialog_id></extraParams></message>"
    }
}
