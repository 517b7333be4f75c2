import CEvent
import Foundation
import TestSupport
@testable import SandboxServer

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

/// An `XMPPServer` on its own event_base and thread, as the sandbox runs it.
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
        guard let base = event_base_new() else { startError = "event_base_new"; ready.signal(); finished.signal(); return }
        // A ticking timer so the loop wakes up to see stop requests and queries.
        let tick = event_new(base, -1, Int16(EV_PERSIST), { _, _, _ in }, nil)
        var interval = timeval(tv_sec: 0, tv_usec: 10_000)
        event_add(tick, &interval)
        do {
            let identity = try TLSIdentity.selfSigned(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
            let database = try SandboxDatabase(path: nil, tokenTTL: 7200)
            let store = ChatStore(database: database, applicationId: XMPPTestConstants.applicationId,
                                  chatDomain: XMPPTestConstants.domain)
            self.database = database
            self.store = store
            let authenticator: ChatAuthenticator = realUsers ? database : FakeChatAuthenticator(XMPPTestConstants.users)
            var server: XMPPServer? = try XMPPServer(
                eventBase: base, host: "127.0.0.1", port: 0, domain: XMPPTestConstants.domain,
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
                event_base_loop(base, Int32(EVLOOP_ONCE))
            }
            server!.stop()
            let deadline = Date().addingTimeInterval(loopAfterStop ? 0.6 : 0)
            while Date() < deadline { event_base_loop(base, Int32(EVLOOP_ONCE)) }
            server = nil
            self.store = nil
            self.database = nil
        } catch {
            startError = "\(error)"
            ready.signal()
        }
        event_free(tick)
        event_base_free(base)
        finished.signal()
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

/// A blocking TCP client that speaks raw XML (optionally through OpenSSL after STARTTLS).
final class RawXMPPClient {
    let fd: Int32
    private(set) var received = ""
    private var ssl: OpaquePointer?
    private var sslContext: OpaquePointer?
    private(set) var closedByServer = false
    /// The server ended TLS with close_notify (not only by closing the socket).
    private(set) var tlsCloseNotified = false

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if status != 0 { close(fd); throw TestFailure("connect failed: \(errno)") }
    }

    deinit {
        if let ssl { SSL_free(ssl) }
        if let sslContext { SSL_CTX_free(sslContext) }
        close(fd)
    }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n: Int
            if let ssl {
                n = Int(bytes.withUnsafeMutableBytes { SSL_write(ssl, $0.baseAddress! + offset, Int32($0.count - offset)) })
            } else {
                n = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads until `predicate` holds for everything received so far, the server
    /// closes, or `timeout` passes. Returns whether the predicate held.
    @discardableResult
    func read(until predicate: (String) -> Bool, timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !predicate(received) {
            if closedByServer { return false }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            if ssl == nil || SSL_pending(ssl) == 0 {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&pfd, 1, Int32(min(remaining, 0.1) * 1000)) <= 0 { continue }
            }
            var buffer = [UInt8](repeating: 0, count: 16384)
            let n: Int
            if let ssl {
                n = Int(SSL_read(ssl, &buffer, Int32(buffer.count)))
            } else {
                n = recv(fd, &buffer, buffer.count, 0)
            }
            if n <= 0 {
                if let ssl, SSL_get_error(ssl, Int32(n)) == SSL_ERROR_ZERO_RETURN { tlsCloseNotified = true }
                closedByServer = true
                return predicate(received)
            }
            received += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return true
    }

    func read(untilContains needle: String, timeout: Double = 5) -> Bool {
        read(until: { $0.contains(needle) }, timeout: timeout)
    }

    /// Waits until the server closes the connection.
    func waitForClose(timeout: Double = 5) -> Bool {
        read(until: { _ in false }, timeout: timeout)
        return closedByServer
    }

    /// Forgets what was read so far (before a stream restart).
    func clear() { received = "" }

    /// Opens the stream, logs in with SASL PLAIN as `authcid` and opens the stream again:
    /// ready to bind. False (with what was read kept) when a step is not answered.
    func authenticate(as authcid: String, password: String) -> Bool {
        send(XMPPTestConstants.header)
        guard read(untilContains: "</stream:features>") else { return false }
        send(XMPPTestConstants.plain(authcid, password))
        guard read(untilContains: "<success") else { return false }
        clear()
        send(XMPPTestConstants.header)
        guard read(untilContains: "</stream:features>") else { return false }
        clear()
        return true
    }

    /// TLS handshake over the socket, trusting only `caPEM` and checking `host`.
    func startTLS(caPEM: String, host: String) throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TestFailure("SSL_CTX_new") }
        sslContext = context
        // BIO_new_mem_buf keeps the pointer: the bytes must outlive the read (make
        // sanitize found a String's temporary C copy freed before PEM_read_bio_X509).
        let pemBytes = Array(caPEM.utf8)
        let read: OpaquePointer? = pemBytes.withUnsafeBytes { bytes in
            let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_X509(bio, nil, nil, nil)
        }
        guard let ca = read else { throw TestFailure("bad CA PEM") }
        defer { X509_free(ca) }
        X509_STORE_add_cert(SSL_CTX_get_cert_store(context), ca)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard let ssl = SSL_new(context) else { throw TestFailure("SSL_new") }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        SSL_set1_host(ssl, host)
        guard SSL_connect(ssl) == 1 else {
            throw TestFailure("TLS handshake failed: verify result \(SSL_get_verify_result(ssl))")
        }
    }
}
