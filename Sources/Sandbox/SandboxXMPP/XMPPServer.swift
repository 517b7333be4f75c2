#if canImport(Glibc)
import Glibc
#endif
import SandboxHTTP
import SandboxLogging
import SandboxNetwork
import SandboxStorage
import SandboxWebSocket
import SandboxXML

/// XMPP client-to-server listeners on the sandbox's event loop: TCP with STARTTLS,
/// and optionally TCP with TLS from the first byte and XMPP over WebSocket, all
/// feeding the same sessions and router.
///
/// Everything runs on the loop thread: create, use and `stop()` it there (or
/// before/after the loop runs).
package final class XMPPServer {
    /// Protocol limits and timeouts (tests shorten the timeouts).
    package struct Limits {
        /// One stanza (or unterminated tag) larger than this is a policy-violation.
        /// Room for a 64 KiB message body (`ChatStore.maxMessageBytes`) even when escaped.
        var maxElementBytes = 512 * 1024
        /// Element nesting, counting the stream element.
        var maxDepth = 32
        /// A client must have bound a resource this many seconds after connecting (`--auth-timeout`).
        package var preAuthTimeout = 30.0
        /// A session that sends nothing (not even a whitespace ping) this long is closed.
        var idleTimeout = 600.0
        /// SASL failures before the stream is closed with not-authorized.
        var maxFailedAuthentications = 3
        /// Connections from one address not yet authenticated; a new one past it closes the
        /// oldest of them (a flood of them cannot crowd out the clients that log in).
        package var maxUnauthenticatedPerAddress = 32
        /// How long a closing stream may take to flush its last bytes.
        var closeGrace = 2.0
        /// Seconds a WebSocket client may take over its HTTP upgrade, or sit idle before it.
        var webSocketUpgradeTimeout = 10
        /// Seconds a session that asked for resumption (XEP-0198) waits for its client after the
        /// connection drops (the `max` of `<enabled/>`).
        var resumptionTimeout = 300
        /// A resumable session keeps at most this many unacknowledged stanzas.
        var maxUnacknowledgedStanzas = 5000
        /// A resumable session asks for an ack (`<r/>`) after this many stanzas.
        var ackRequestEvery = 10
        /// A group of more occupants than this shares no presence (a login would tell them all).
        var maxPresenceGroupOccupants = 100

        package init() {}
    }

    let chat: ChatDomain
    let tls: TLSIdentity
    let authenticator: ChatAuthenticator
    let log: SandboxLog
    let limits: Limits
    private let loop: EventLoop
    private var listeners: [TCPListener] = []
    private var webSocketListener: WebSocketListener?
    /// Watches the WebSocket mailbox's wake-up pipe.
    private var webSocketEvent: LoopEvent?
    private var isStopped = false
    private var connections: [Int: XMPPClientConnection] = [:]
    /// WebSocket connections by the WebSocket listener's id.
    private var webSockets: [Int: XMPPClientConnection] = [:]
    private var connectionCount = 0
    /// Connections not yet authenticated, by connection number, oldest first per address.
    private lazy var unauthenticated = IdleConnections<Int>(perAddress: max(1, limits.maxUnauthenticatedPerAddress),
                                                            overall: max(limits.maxUnauthenticatedPerAddress, 512))
    /// Bound sessions: user id → resource → connection (routing, rooms and presence read it).
    let boundSessions = BoundSessions()
    /// Sessions that may be resumed (XEP-0198 §5), live or hibernating, by their resumption id.
    private var resumable: [String: XMPPClientConnection] = [:]
    /// The port actually bound (after asking for 0).
    package private(set) var boundPort: Int = 0
    /// Messages, markers, typing and rooms.
    let router: XMPPStanzaRouter
    /// One transaction and one write per connection for each turn of the loop (group commit).
    package let turn: TurnCommit
    /// What every connection shares, with this server's handlers of the events it raises.
    private lazy var connectionEnvironment = ConnectionEnvironment(chat: chat, limits: limits, log: log, tls: tls,
                                                                   authenticator: authenticator, turn: turn, events: connectionEvents())

    /// `loop` is the one the REST server shares; `turn`, the group commit REST requests end too.
    package init(loop: EventLoop, host: String, port: Int, domain: String, applicationId: Int,
                 tls: TLSIdentity, authenticator: ChatAuthenticator, log: SandboxLog, limits: Limits = Limits(),
                 store: ChatStore? = nil, turn: TurnCommit? = nil) throws {
        self.loop = loop
        let turn = turn ?? TurnCommit(loop: loop, store: store, log: log)
        self.turn = turn
        chat = ChatDomain(name: domain, applicationId: applicationId)
        self.tls = tls
        self.authenticator = authenticator
        self.log = log
        self.limits = limits
        router = XMPPStanzaRouter(chat: chat, sessions: boundSessions, records: StanzaStorage(store: store, log: log), turn: turn,
                                  maxPresenceGroupOccupants: limits.maxPresenceGroupOccupants)
        boundPort = try listen(host: host, port: port, directTLS: false)
        log.log(.info, "xmpp: listening on \(host):\(boundPort) for domain \(chat.name)")
    }

    /// This server's handlers of what its connections raise.
    private func connectionEvents() -> ConnectionEvents {
        ConnectionEvents(
            authenticated: { [unowned self] in self.stopCountingUnauthenticated($0) },
            bind: { [unowned self] in self.bind($0, requested: $1) },
            stanza: { [unowned self] in self.route($0, kind: $1, from: $2) },
            resumable: { [unowned self] in self.resumable[$1] = $0 },
            unresumable: { [unowned self] in self.forgetResumable($0) },
            findResumable: { [unowned self] in self.resumableSession($0, userId: $1) },
            resumed: { [unowned self] in self.transferSession(from: $0, to: $1) },
            unbound: { [unowned self] in self.unbind($0) },
            closed: { [unowned self] in self.remove($0) })
    }

    /// Also serves XMPP with TLS from the first byte (no STARTTLS) on `port`; returns the port bound.
    package func listenForDirectTLS(host: String, port: Int) throws -> Int {
        let bound = try listen(host: host, port: port, directTLS: true)
        log.log(.info, "xmpp: listening for direct TLS on \(host):\(bound)")
        return bound
    }

    /// Also serves XMPP over WebSocket (RFC 7395) on `port`, to pages from `origins`; returns the port bound.
    /// `secure`: `wss://`, with the server's own TLS identity (`chatctl-sandbox --https`).
    package func listenForWebSockets(host: String, port: Int, origins: CORSOrigins = .any, secure: Bool = false) throws -> Int {
        precondition(webSocketListener == nil, "one WebSocket listener per server")
        let credentials = secure ? TLSCredentials(certificatePEM: tls.certificatePEM, keyPEM: try tls.privateKeyPEM()) : nil
        let listener = try WebSocketListener(host: host, port: port, maxMessageBytes: limits.maxElementBytes,
                                             upgradeTimeout: limits.webSocketUpgradeTimeout, origins: origins,
                                             tls: credentials,
                                             maximumWaiting: (limits.maxUnauthenticatedPerAddress, max(limits.maxUnauthenticatedPerAddress, 512)),
                                             log: log)
        guard let event = LoopEvent(loop: loop, .readable(descriptor: listener.mailbox.loopWakeReader, persistent: true), action: {
            [unowned self] in self.webSocketEventsArrived()
        }) else {
            throw SandboxFailure("cannot watch the WebSocket listener")
        }
        webSocketListener = listener
        webSocketEvent = event
        return listener.boundPort
    }

    deinit {
        listeners = []
        webSocketEvent = nil
        // The connections go first: a WebSocket connection's channel points at the listener.
        connections = [:]
        webSockets = [:]
        webSocketListener?.stop()
    }

    /// Binds a TCP listener on the event loop; returns the port bound.
    private func listen(host: String, port: Int, directTLS: Bool) throws -> Int {
        let address: ListeningAddress
        do { address = try ListeningAddress(host: host, port: port) } catch {
            throw SandboxFailure("cannot resolve chat host \(host): \(error)")
        }
        let transport: XMPPClientConnection.Transport = directTLS ? .directTLS : .tcp
        let listener: TCPListener
        do {
            listener = try TCPListener(loop: loop, address: address, accept: { [unowned self] socket, peer in
                self.accept(socket, peer: peer, transport: transport)
            }, failed: { [unowned self] reason in
                // EMFILE and friends: log and keep listening; existing streams carry on.
                self.log.log(.warning, "xmpp: accept failed: \(reason)")
            })
        } catch {
            throw SandboxFailure("cannot listen for XMPP\(directTLS ? " (direct TLS)" : "") on \(host):\(port): \(error)")
        }
        listeners.append(listener)
        return listener.boundPort
    }

    /// Closes the listener and every stream (with a system-shutdown stream error).
    /// The goodbyes are written at once; sockets close as their output drains
    /// while the loop keeps running (at most half a second), or when the server
    /// is released, whichever comes first.
    package func stop() {
        isStopped = true
        listeners = []
        for connection in connections.values {
            connection.terminate(.systemShutdown, grace: min(limits.closeGrace, 0.5))
        }
        // What this turn stored is committed and the goodbyes handed over; the caller may
        // leave the loop right away, so they go to the kernel now.
        turn.finish()
        for connection in connections.values { connection.flushNow() }
    }

    /// Connections currently open (tests check that closed ones are gone).
    var openConnectionCount: Int { connections.count }

    private func accept(_ socket: Int32, peer: String, transport: XMPPClientConnection.Transport) {
        connectionCount += 1
        do {
            let connection = try XMPPClientConnection(shared: connectionEnvironment, loop: loop, socket: socket, transport: transport,
                                                      number: connectionCount, peer: peer)
            connections[connectionCount] = connection
            countUnauthenticated(connection)
            log.log(.debug, "xmpp #\(connectionCount): connection from \(peer)\(transport == .directTLS ? " (direct TLS)" : "")")
        } catch {
            log.log(.warning, "xmpp: dropping connection from \(peer): \(error)")
        }
    }

    /// What the WebSocket thread posted: new WebSockets, their messages, their ends.
    private func webSocketEventsArrived() {
        guard let listener = webSocketListener else { return }
        for event in listener.mailbox.takeEvents() {
            switch event {
            case .opened(let id, let peer):
                let channel = WebSocketChannel(id: id, listener: listener)
                guard !isStopped else {
                    channel.close(reason: "the server is shutting down")
                    continue
                }
                connectionCount += 1
                let connection = XMPPClientConnection(shared: connectionEnvironment, loop: loop, webSocket: channel, number: connectionCount, peer: peer)
                connections[connectionCount] = connection
                countUnauthenticated(connection)
                webSockets[id] = connection
                log.log(.debug, "xmpp #\(connectionCount): WebSocket from \(peer)")
            case .message(let id, let bytes):
                webSockets[id]?.receive(webSocketMessage: bytes)
            case .oversized(let id):
                webSockets[id]?.terminate(.policyViolation)
            case .closed(let id, let reason):
                webSockets.removeValue(forKey: id)?.webSocketClosed(reason: reason)
            }
        }
    }

    /// Counts a new connection against its address's cap on unauthenticated ones; past the
    /// cap the oldest of them is closed, not the newcomer (docs/protocol.md §7). Logs the
    /// first of each burst.
    private func countUnauthenticated(_ connection: XMPPClientConnection) {
        let host = Self.host(of: connection.peer)
        let evicted = unauthenticated.becameIdle(connection.number, address: host)
        if let closed = unauthenticated.evictionsToLog, let oldest = evicted.first {
            log.log(.warning, "xmpp: \(host) has \(limits.maxUnauthenticatedPerAddress) connections not yet authenticated; closing the oldest, #\(oldest), for #\(connection.number) (\(closed) so far)")
        }
        for number in evicted { connections[number]?.evict() }
    }

    /// `connection` no longer counts against its address's cap (it authenticated, or it is gone).
    private func stopCountingUnauthenticated(_ connection: XMPPClientConnection) {
        unauthenticated.remove(connection.number)
    }

    /// "127.0.0.1:5222" → "127.0.0.1", "::1:5222" → "::1".
    private static func host(of peer: String) -> String {
        guard let colon = peer.lastIndex(of: ":") else { return peer }
        return String(peer[..<colon])
    }

    private func remove(_ connection: XMPPClientConnection) {
        connections[connection.number] = nil
        stopCountingUnauthenticated(connection)
        if let id = connection.webSocket?.id { webSockets[id] = nil }
        forgetResumable(connection)
    }

    // MARK: resumable sessions (XEP-0198 §5)

    private func forgetResumable(_ connection: XMPPClientConnection) {
        if let id = connection.session.resumptionId, resumable[id] === connection { resumable[id] = nil }
    }

    /// The session `id` if it is `userId`'s.
    private func resumableSession(_ id: String, userId: Int) -> XMPPClientConnection? {
        guard let connection = resumable[id], connection.session.userId == userId else { return nil }
        return connection
    }

    /// `successor` resumed `previous`: it is bound under the same resource, sits in the same rooms
    /// and may be resumed by the same id.
    private func transferSession(from previous: XMPPClientConnection, to successor: XMPPClientConnection) {
        guard let userId = successor.session.userId, let resource = successor.session.resource else { return }
        boundSessions.bind(successor, userId: userId, resource: resource)
        router.muc.moveSeats(of: previous, to: successor)
        if let id = successor.session.resumptionId { resumable[id] = successor }
    }

    // MARK: bound sessions

    /// Binds `requested` (or a generated resource) for the connection's user; a
    /// session already bound to that full JID is replaced (`conflict`), as
    /// reconnecting SDKs expect.
    private func bind(_ connection: XMPPClientConnection, requested: String?) -> String {
        guard let userId = connection.session.userId else { preconditionFailure("binding before authentication") }
        var resource = requested ?? ""
        if resource.isEmpty || resource.utf8.count > 1023 || resource.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "/" }) {
            resource = "sandbox-" + String(UInt64.random(in: .min ... .max), radix: 16)
        }
        if let previous = boundSessions[userId]?[resource], previous !== connection {
            boundSessions.unbind(userId: userId, resource: resource)
            previous.terminate(.conflict)
            // The replaced session's presence ends with it; the new one announces its own.
            router.presence.resourceGone(userId: userId, resource: resource)
        }
        boundSessions.bind(connection, userId: userId, resource: resource)
        return resource
    }

    private func unbind(_ connection: XMPPClientConnection) {
        router.muc.leaveAllRooms(connection)
        router.sessionEnded(connection)
        guard let userId = connection.session.userId, let resource = connection.session.resource,
              boundSessions[userId]?[resource] === connection else { return }
        boundSessions.unbind(userId: userId, resource: resource)
        router.presence.resourceGone(userId: userId, resource: resource)
    }

    /// Messages and presences from bound sessions: to every resource of a user, or
    /// through a MUC room on `muc.{domain}`, stored first when they ask for it.
    private func route(_ stanza: XMPPElement, kind: StanzaKind, from connection: XMPPClientConnection) {
        log.log(.debug, "xmpp #\(connection.number): \(stanza.name) from \(connection.session.fullJID ?? "?")")
        // Messages are what gets stored (history, markers): into this turn's transaction.
        if kind == .message { turn.beginWriting() }
        router.route(stanza, kind: kind, from: connection)
    }

    /// A message stored through REST with `send_to_chat=1`, to its recipients online.
    package func deliver(_ message: MessageRecord, in dialog: DialogRecord) {
        router.deliver(message, in: dialog)
    }

    /// `users` are no longer occupants of `dialogId` (removed over REST by `actor`): their
    /// seats in its room go, and everyone there hears of it.
    package func removeFromRoom(_ dialogId: String, users: [Int], by actor: Int) {
        router.muc.removeOccupants(users, from: dialogId, by: actor)
    }
}

@available(*, unavailable) extension XMPPServer: Sendable {}
