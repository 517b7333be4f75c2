internal import CEvent
#if canImport(Glibc)
import Glibc
#endif

/// XMPP client-to-server listener on the sandbox's event loop.
///
/// Everything runs on the loop thread that dispatches `eventBase`: create,
/// use and `stop()` it there (or before/after the loop runs). Release it
/// before freeing the `event_base`.
final class XMPPServer {
    /// Protocol limits and timeouts (tests shorten the timeouts).
    struct Limits {
        /// One stanza (or unterminated tag) larger than this is a policy-violation.
        /// Room for a 64 KiB message body (`ChatStore.maxMessageBytes`) even when escaped.
        var maxElementBytes = 512 * 1024
        /// Element nesting, counting the stream element.
        var maxDepth = 32
        /// A client must have bound a resource this many seconds after connecting.
        var preAuthTimeout = 30.0
        /// A session that sends nothing (not even a whitespace ping) this long is closed.
        var idleTimeout = 600.0
        /// SASL failures before the stream is closed with not-authorized.
        var maxFailedAuthentications = 3
        /// How long a closing stream may take to flush its last bytes.
        var closeGrace = 2.0
    }

    let domain: String
    let applicationId: Int
    let tls: TLSIdentity
    let authenticator: ChatAuthenticator
    let log: SandboxLog
    let limits: Limits
    private let base: OpaquePointer
    private var listener: OpaquePointer?        // struct evconnlistener*
    private var connections: [Int: XMPPClientConnection] = [:]
    private var connectionCount = 0
    /// Bound sessions: user id → resource → connection (message routing reads this).
    private(set) var boundSessions: [Int: [String: XMPPClientConnection]] = [:]
    /// The port actually bound (after asking for 0).
    private(set) var boundPort: Int = 0
    /// Messages, markers, typing and rooms.
    private(set) var router: XMPPStanzaRouter!

    /// `eventBase` is the `event_base*` shared with the REST server.
    init(eventBase: OpaquePointer, host: String, port: Int, domain: String, applicationId: Int,
         tls: TLSIdentity, authenticator: ChatAuthenticator, log: SandboxLog, limits: Limits = Limits(),
         store: ChatStore? = nil) throws {
        base = eventBase
        self.domain = domain.lowercased()
        self.applicationId = applicationId
        self.tls = tls
        self.authenticator = authenticator
        self.log = log
        self.limits = limits
        // A peer that vanishes mid-write must cost an EPIPE, not the process.
        signal(SIGPIPE, SIG_IGN)

        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>? = nil
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &found)
        guard status == 0, let address = found else {
            throw XMPPServerError("cannot resolve chat host \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        let flags = UInt32(LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC)
        listener = evconnlistener_new_bind(eventBase, { _, socket, address, length, ctx in
            let server = Unmanaged<XMPPServer>.fromOpaque(ctx!).takeUnretainedValue()
            server.accept(socket, address, length)
        }, Unmanaged.passUnretained(self).toOpaque(), flags, -1, address.pointee.ai_addr, Int32(address.pointee.ai_addrlen))
        guard let listener else {
            throw XMPPServerError("cannot listen for XMPP on \(host):\(port): \(String(cString: strerror(errno)))")
        }
        evconnlistener_set_error_cb(listener) { listener, ctx in
            let server = Unmanaged<XMPPServer>.fromOpaque(ctx!).takeUnretainedValue()
            // EMFILE and friends: log and keep listening; existing streams carry on.
            server.log.log(.warning, "xmpp: accept failed: \(String(cString: strerror(errno)))")
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = evconnlistener_get_fd(listener)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        boundPort = Int(bound.ss_family == sa_family_t(AF_INET6)
            ? withUnsafePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) } }
            : withUnsafePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } })
        log.log(.info, "xmpp: listening on \(host):\(boundPort) for domain \(self.domain)")
        router = XMPPStanzaRouter(server: self, store: store)
    }

    deinit {
        if let listener { evconnlistener_free(listener) }
    }

    /// Closes the listener and every stream (with a system-shutdown stream error).
    /// The goodbyes are written at once; sockets close as their output drains
    /// while the loop keeps running (at most half a second), or when the server
    /// is released, whichever comes first.
    func stop() {
        if let listener {
            evconnlistener_free(listener)
            self.listener = nil
        }
        for connection in connections.values {
            connection.terminate(.systemShutdown, grace: min(limits.closeGrace, 0.5))
            // The caller may leave the loop right away: hand the goodbye to the kernel now.
            connection.flushNow()
        }
    }

    /// Connections currently open (tests check that closed ones are gone).
    var openConnectionCount: Int { connections.count }

    private func accept(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: Int32) {
        connectionCount += 1
        let peer = Self.describe(address, length)
        do {
            let connection = try XMPPClientConnection(server: self, base: base, socket: socket, number: connectionCount, peer: peer)
            connections[connectionCount] = connection
            log.log(.debug, "xmpp #\(connectionCount): connection from \(peer)")
        } catch {
            log.log(.warning, "xmpp: dropping connection from \(peer): \(error)")
        }
    }

    private static func describe(_ address: UnsafeMutablePointer<sockaddr>?, _ length: Int32) -> String {
        guard let address else { return "?" }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        guard getnameinfo(address, socklen_t(length), &host, socklen_t(host.count), &service, socklen_t(service.count),
                          NI_NUMERICHOST | NI_NUMERICSERV) == 0 else { return "?" }
        func text(_ chars: [CChar]) -> String { String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return text(host) + ":" + text(service)
    }

    func remove(_ connection: XMPPClientConnection) {
        connections[connection.number] = nil
    }

    // MARK: bound sessions

    /// Binds `requested` (or a generated resource) for the connection's user; a
    /// session already bound to that full JID is replaced (`conflict`), as
    /// reconnecting SDKs expect.
    func bind(_ connection: XMPPClientConnection, requested: String?) -> String {
        guard let userId = connection.session.userId else { preconditionFailure("binding before authentication") }
        var resource = requested ?? ""
        if resource.isEmpty || resource.utf8.count > 1023 || resource.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "/" }) {
            resource = "sandbox-" + String(UInt64.random(in: .min ... .max), radix: 16)
        }
        if let previous = boundSessions[userId]?[resource], previous !== connection {
            boundSessions[userId]?[resource] = nil
            previous.terminate(.conflict)
        }
        boundSessions[userId, default: [:]][resource] = connection
        return resource
    }

    func unbind(_ connection: XMPPClientConnection) {
        router.leaveAllRooms(connection)
        guard let userId = connection.session.userId, let resource = connection.session.resource,
              boundSessions[userId]?[resource] === connection else { return }
        boundSessions[userId]?[resource] = nil
        if boundSessions[userId]?.isEmpty == true { boundSessions[userId] = nil }
    }

    /// Messages and presences from bound sessions: to every resource of a user, or
    /// through a MUC room on `muc.{domain}`, stored first when they ask for it.
    func route(_ stanza: XMPPElement, from connection: XMPPClientConnection) {
        log.log(.debug, "xmpp #\(connection.number): \(stanza.name) from \(connection.session.fullJID ?? "?")")
        router.route(stanza, from: connection)
    }
}

extension XMPPServer: LiveChatDelivery {
    func deliver(_ message: MessageRecord, in dialog: DialogRecord) {
        router.deliver(message, in: dialog)
    }
}

@available(*, unavailable) extension XMPPServer: Sendable {}
