#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CStrophe
internal import CStropheTrust

/// `xmpp_initialize` once, on first use (not at program start: startup time matters).
let stropheLibraryInitialized: Void = { xmpp_initialize() }()

/// One XMPP client connection through libstrophe. Not Sendable: the thread that
/// creates it runs its event loop (inside connect/disconnect/ping/join/pump), so a
/// `Sendable` façade must confine it to one dedicated thread, never the Swift
/// concurrency pool (other threads hand it work through a mailbox). Incoming traffic,
/// delivery acks and connection loss reach `onEvent` on that thread.
///
/// This file holds the lifecycle and the only uses of the connection's `xmpp_ctx_t` and
/// `xmpp_conn_t`; `ChatSessionState` decides, the other `XMPPConnection+…` files
/// perform: sending and stream management, rooms, pings, keep-alive, the event loop,
/// the log. Stanzas become `StanzaElement`s in StanzaElement+Strophe.swift; C
/// callbacks enter through StropheCallbacks.swift.
package final class XMPPConnection {
    /// Nil when libstrophe cannot be loaded (CStrophe loads it on first use): `connect` says so.
    private let ctx: OpaquePointer?
    /// A fresh `xmpp_conn_t` per connect attempt, so no state leaks between attempts.
    private var conn: OpaquePointer?
    /// libstrophe keeps a pointer to this struct for the life of `ctx`.
    private let logHandler: UnsafeMutablePointer<xmpp_log_t>
    /// The userdata of every callback: the unretained `self`, cleared first in deinit,
    /// because `xmpp_conn_release` of a live connection calls the connection handler.
    private let callbackTarget: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// Decides the lifecycle, room joins, IQ replies and keep-alive; this class performs.
    var state = ChatSessionState()
    var evidence = ConnectEvidence()
    var tracker = DeliveryTracker()
    private var endpoint = ChatEndpoint(security: .startTLS, host: "", port: 0)
    /// How the last connect attempt asked for TLS (a fallback from `xmpps://` asks for STARTTLS).
    private var attemptSecurity: ChatEndpoint.Security = .startTLS
    /// The CAs this connection's TLS set-ups trust, shared by the process (CStropheTrust);
    /// nil when libstrophe loads them itself.
    private var trust: OpaquePointer?
    var endpointDescription: String { endpoint.description }
    var verboseLog: (@Sendable (String) -> Void)?
    /// Literal strings (the password or token) the log must never show.
    var secrets: [String] = []
    var lastFailure: XMPPError?
    /// A head start waits this long at most for its credentials; past it its stream is dropped
    /// for a fresh one (libstrophe gives up on a stream's features after 15 s, servers on an
    /// unauthenticated stream after 30 s or more).
    var headStartPatience: Duration = .seconds(5)
    var options = ChatConnectOptions()
    var idGenerator = ObjectIDGenerator()
    /// Events waiting for `deliverEvents` (never delivered from inside a libstrophe callback).
    var pendingEvents: [ChatEvent] = []
    /// Stanzas the handler has seen, for `runOnce` to tell a turn that brought some.
    var stanzasHeard = 0
    var deliveringEvents = false
    private let clockOrigin = ContinuousClock.now

    /// Receives incoming messages, markers, chat states, bounces, delivery acks and
    /// connection loss, on the owning thread, while `pump` (or another blocking call) runs.
    package var onEvent: ((ChatEvent) -> Void)?
    /// Called after each batch of events handed to `onEvent` (what the socket held):
    /// where an owner that holds messages back to store many at once stores them.
    package var onEventsDelivered: (() -> Void)?

    package init() {
        _ = stropheLibraryInitialized
        callbackTarget = .allocate(capacity: 1)
        callbackTarget.initialize(to: nil)
        logHandler = .allocate(capacity: 1)
        logHandler.initialize(to: xmpp_log_t(handler: stropheLogCallback, userdata: UnsafeMutableRawPointer(callbackTarget)))
        if cstrophe_load() == 0 {
            guard let ctx = xmpp_ctx_new(nil, logHandler) else { preconditionFailure("xmpp_ctx_new failed (out of memory)") }
            self.ctx = ctx
        } else {
            ctx = nil
        }
        callbackTarget.pointee = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        callbackTarget.pointee = nil
        if let conn {
            CertificateRejections.clear(conn)
            ConnectSockets.clear(conn)
            xmpp_conn_release(conn)
        }
        if let ctx { xmpp_ctx_free(ctx) }
        logHandler.deinitialize(count: 1)
        logHandler.deallocate()
        callbackTarget.deinitialize(count: 1)
        callbackTarget.deallocate()
    }

    // MARK: lifecycle

    /// Blocks until the session is established (TLS, SASL PLAIN, bind, session,
    /// initial presence) or fails. Calling it while connected or connecting is not an error.
    /// An `xmpps://` server whose first bytes are plain XML gets one more attempt on the
    /// same port with STARTTLS (still mandatory), within the same timeout (docs/protocol.md §7).
    package func connect(jid: String, password: String, endpoint: ChatEndpoint, options: ChatConnectOptions) throws(XMPPError) {
        let credentials = ChatCredentials(jid: jid, password: password)
        try connect(headStartDomain: nil, endpoint: endpoint, options: options, cancellation: nil) { credentials }
    }

    /// `connect` with a head start: TCP, the stream and TLS are set up for `domain` before the
    /// credentials are known, and `credentials` is called (once, on this thread; it may block)
    /// when the secured stream is about to authenticate. Until then the stream is TLS-only,
    /// whatever `options.allowPlaintext` says. The wait does not count against
    /// `options.timeout`; nil from it, or `cancellation`, ends the connect (`.disconnected`).
    /// A head start that ends before authenticating (a server without TLS, a hang-up), or
    /// that waited longer than servers keep a stream nobody logs in on, is followed by the
    /// ordinary connect with the credentials, within what is left of the timeout
    /// (docs/protocol.md §7).
    package func connect(domain: String, endpoint: ChatEndpoint, options: ChatConnectOptions,
                        cancellation: ChatConnectCancellation? = nil,
                        credentials: @escaping () -> ChatCredentials?) throws(XMPPError) {
        try connect(headStartDomain: domain, endpoint: endpoint, options: options, cancellation: cancellation, credentials: credentials)
    }


    private func connect(headStartDomain domain: String?, endpoint: ChatEndpoint, options: ChatConnectOptions,
                         cancellation: ChatConnectCancellation?, credentials: @escaping () -> ChatCredentials?) throws(XMPPError) {
        guard ctx != nil else {
            throw XMPPError(code: .libraryUnavailable, endpoint: endpoint.description,
                            detail: "cannot load libstrophe (\(String(cString: cstrophe_load_error())))")
        }
        if state.phase == .disconnecting { disconnect(timeout: 2) }
        guard state.handle(.connectRequested) == .startConnect else { return }

        self.endpoint = endpoint
        verboseLog = options.verboseLog
        secrets = []
        tracker = DeliveryTracker(requestEvery: options.ackRequestInterval)
        self.options = options
        var deadline = ContinuousClock.now + .milliseconds(Int64(max(0, options.timeout) * 1000))
        var request = CredentialRequest(domain: domain, endpoint: endpoint.description, cancellation: cancellation, ask: credentials)
        if domain == nil { try request.obtain(deadline: &deadline) }

        try establish(&request, deadline: &deadline)
        if state.phase != .connected && !request.used && !request.cancelled && ContinuousClock.now < deadline {
            verboseLog?("chat: the head start to \(endpoint) ended before logging in; connecting again")
            try request.obtain(deadline: &deadline)
            _ = state.handle(.connectRequested)
            try establish(&request, deadline: &deadline)
        }
        guard state.phase == .connected else {
            throw lastFailure ?? XMPPError(kind: .cannotConnect, endpoint: endpoint.description, detail: evidence.detail)
        }
        if let verboseLog {
            let how = !isSecured ? "no TLS (allowed for this host)" : attemptSecurity == .directTLS ? "TLS from the first byte" : "STARTTLS"
            verboseLog("chat: connected to \(endpoint) with \(how)")
        }
        startKeepAlive()
    }

    /// One attempt as the endpoint says, and for an `xmpps://` server that answered in plain
    /// text one more with STARTTLS on the same port.
    private func establish(_ request: inout CredentialRequest, deadline: inout ContinuousClock.Instant) throws(XMPPError) {
        try attempt(&request, security: endpoint.security, deadline: &deadline)
        if state.phase == .disconnected && endpoint.security == .directTLS && evidence.plainTextInsteadOfTLS
            && ContinuousClock.now < deadline {
            verboseLog?("chat: \(endpoint) answered in plain text, not TLS: trying STARTTLS on the same port")
            _ = state.handle(.connectRequested)
            do {
                try attempt(&request, security: .startTLS, deadline: &deadline)
            } catch {
                throw Self.afterFallback(error)
            }
            if state.phase != .connected, let failure = lastFailure { throw Self.afterFallback(failure) }
        }
    }

    private static func afterFallback(_ error: XMPPError) -> XMPPError {
        var error = error
        error.detail = "no TLS from the first byte; STARTTLS on the same port: " + (error.detail.isEmpty ? "\(error.kind)" : error.detail)
        return error
    }

    /// One attempt on a fresh `xmpp_conn_t`: returns connected or failed (`lastFailure`), or
    /// not connected and the credentials unused (a head start given up on); throws when it
    /// cannot start, is cancelled or `deadline` passes. Without credentials yet, it runs until
    /// the stream is secured and then asks for them.
    private func attempt(_ request: inout CredentialRequest, security: ChatEndpoint.Security,
                         deadline: inout ContinuousClock.Instant) throws(XMPPError) {
        evidence = ConnectEvidence()
        lastFailure = nil
        attemptSecurity = security

        releaseConnection()
        guard let ctx, let conn = xmpp_conn_new(ctx) else { preconditionFailure("xmpp_conn_new failed (out of memory)") }
        self.conn = conn

        var flags: Int = 0
        switch security {
        case .directTLS: flags |= Int(XMPP_CONN_FLAG_LEGACY_SSL)
        // A fallback from xmpps:// never goes plaintext: the scheme asked for TLS. Nor does a
        // head start: without TLS the server would ask at once for credentials not there yet.
        case .startTLS:
            if !options.allowPlaintext || endpoint.security == .directTLS || !request.obtained { flags |= Int(XMPP_CONN_FLAG_MANDATORY_TLS) }
        }
        // Never XMPP_CONN_FLAG_TRUST_TLS: certificates are always verified.
        precondition(xmpp_conn_set_flags(conn, flags) == XMPP_EOK, "xmpp_conn_set_flags on a fresh connection")
        if request.obtained {
            use(&request, on: conn)
        } else {
            // The domain names the server and TLS's host; a JID without a node also keeps the
            // stream header's `from` out until the credentials come (RFC 6120 §4.7.1).
            xmpp_conn_set_jid(conn, request.domain ?? "")
        }
        // This connection's CAs, never the process's environment: its caFile alone, else the
        // system's store, each parsed once per process (not by each of libstrophe's TLS set-ups,
        // two for STARTTLS). Where that cannot work, libstrophe loads the system's store and the
        // caFile itself, as it always did.
        trust = Self.sharedTrustWorks ? strophe_trust_for(options.caFile) : nil
        if trust == nil, let caFile = options.caFile { xmpp_conn_set_cafile(conn, caFile) }
        xmpp_conn_set_sockopt_callback(conn, noDelaySocketCallback)
        xmpp_conn_set_certfail_handler(conn, certificateFailureCallback)
        let me = UnsafeMutableRawPointer(callbackTarget)
        // The one catch-all stanza handler; routing happens in handleStanza.
        xmpp_handler_add(conn, stanzaCallback, nil, nil, nil, me)

        guard endpoint.port > 0, endpoint.port <= 65535 else {
            _ = state.handle(.streamClosed(failure: .cannotConnect))
            throw XMPPError(kind: .cannotConnect, endpoint: endpoint.description, detail: "invalid port \(endpoint.port)")
        }
        strophe_trust_use(trust)
        let rc = xmpp_connect_client(conn, endpoint.host, UInt16(endpoint.port), connectionCallback, me)
        strophe_trust_use(nil)
        if rc != XMPP_EOK {
            _ = state.handle(.streamClosed(failure: .cannotConnect))
            throw XMPPError(kind: .cannotConnect, endpoint: endpoint.description,
                            detail: "cannot start connecting (libstrophe error \(rc))")
        }

        // A moment after the deadline, in case libstrophe's TLS handshake is what holds us.
        let watchdog = ConnectWatchdog(connection: conn, port: endpoint.port, deadline: deadline + .milliseconds(100))
        let cancellation = request.cancellation
        cancellation?.watch(watchdog)
        let waiting = !request.obtained
        runLoop(until: deadline) { $0.state.phase != .connecting || cancellation?.isCancelled == true || (waiting && $0.isSecured) }
        // Past TLS (or failed), the watchdog has nothing left to do.
        cancellation?.watch(nil)
        let hungUp = watchdog?.disarm() == true
        try endIfCancelled(request)
        if hungUp {
            // Its hang-up ended the handshake: that is the deadline passing, whatever libstrophe said.
            evidence.handshakeStalledAfter = options.timeout
            if state.phase != .disconnected { _ = state.handle(.streamClosed(failure: .timedOut)) }
            abortConnection()
            throw XMPPError(kind: .timedOut, endpoint: endpoint.description, detail: evidence.detail)
        }
        if waiting && state.phase == .connecting && isSecured {
            // The secured stream is about to authenticate: now the credentials are needed.
            let asked = ContinuousClock.now
            try request.obtain(deadline: &deadline)
            if ContinuousClock.now - asked > headStartPatience {
                _ = state.handle(.streamClosed(failure: nil))
                abortConnection()
                return
            }
            use(&request, on: conn)
            runLoop(until: deadline) { $0.state.phase != .connecting }
        }
        if state.phase == .connecting {
            _ = state.handle(.deadlinePassed)
            abortConnection()
            throw XMPPError(kind: .timedOut, endpoint: endpoint.description,
                            detail: "no session within \(options.timeout) s\(evidence.tcpConnected ? " (TCP connected, server did not finish the XMPP handshake)" : "")")
        }
    }

    /// Gives the attempt's stream the credentials to authenticate with.
    private func use(_ request: inout CredentialRequest, on conn: OpaquePointer) {
        guard let credentials = request.credentials else { return }
        xmpp_conn_set_jid(conn, credentials.jid)
        xmpp_conn_set_pass(conn, credentials.password)
        secrets = [credentials.password]
        request.used = true
    }

    /// A cancelled connect ends here, its stream closed at once.
    private func endIfCancelled(_ request: CredentialRequest) throws(XMPPError) {
        guard request.cancelled, state.phase != .connected else { return }
        if state.phase != .disconnected { _ = state.handle(.streamClosed(failure: nil)) }
        abortConnection()
        throw ChatConnectCancellation.error(endpoint: endpoint.description)
    }

    private var isSecured: Bool { conn.map { xmpp_conn_is_secured($0) == 1 } ?? false }

    /// Whether TLS set-ups take the CAs chosen per connection, parsed once per process
    /// (the executable exports CStropheTrust's stand-in for libssl's function).
    static let sharedTrustWorks = strophe_trust_is_interposed() == 1

    /// How many times the CAs of `caFile` (nil: the system's store) were parsed, and how many
    /// TLS set-ups used them, in this process.
    static func trustStatistics(caFile: String?) -> (loads: Int, uses: Int) {
        guard let trust = strophe_trust_for(caFile) else { return (0, 0) }
        return (Int(strophe_trust_loads(trust)), Int(strophe_trust_uses(trust)))
    }

    /// Does now, on this thread, the set-up a first connect would do: libstrophe's and
    /// OpenSSL's initialisation, CStropheTrust's look-up of libssl, and the connect's watchdog
    /// thread (parked until a connect takes it). A thread that connects beside one loading a
    /// library (dlopen) would otherwise wait for it: OpenSSL pins itself with dlopen, and glibc
    /// lets one thread in the loader at a time, which also holds up `pthread_create`.
    package static func prepareLibrary() {
        _ = stropheLibraryInitialized
        strophe_trust_prepare()
        SpareWatchThread.park()
    }

    package var isConnected: Bool { state.phase == .connected }

    /// The session phase (for `status` and diagnostics).
    package var phase: ChatSessionState.Phase { state.phase }

    /// Whether the server agreed to send carbons (answered once a round trip has passed).
    package var carbons: ChatSessionState.Carbons { state.carbons }

    /// The full JID the server bound, after connect.
    package var boundJID: String? {
        guard state.phase == .connected, let conn, let jid = xmpp_conn_get_bound_jid(conn) else { return nil }
        return String(cString: jid)
    }

    /// The domain of the bound JID: where pings go.
    var serverDomain: String? {
        guard let jid = boundJID else { return nil }
        let bare = jid.split(separator: "/", maxSplits: 1).first ?? ""
        guard let at = bare.lastIndex(of: "@") else { return String(bare) }
        return String(bare[bare.index(after: at)...])
    }

    /// Closes the stream politely (waits at most `timeout` seconds).
    package func disconnect(timeout: Double = 2) {
        switch state.handle(.disconnectRequested) {
        case .closeStream:
            if let conn { xmpp_disconnect(conn) }
            let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
            runLoop(until: deadline) { $0.state.phase != .disconnecting }
            if state.phase == .disconnecting {
                _ = state.handle(.deadlinePassed)
                abortConnection()
            }
        case .abortConnect:
            abortConnection()
        default:
            break
        }
    }

    /// Closes the socket at once, without the closing handshake (deadlines passed).
    /// `xmpp_conn_release` closes a live socket synchronously; its disconnect
    /// callback is ignored because `self.conn` is already nil by then.
    func abortConnection() {
        releaseConnection()
    }

    private func releaseConnection() {
        guard let conn else { return }
        CertificateRejections.clear(conn)
        ConnectSockets.clear(conn)
        self.conn = nil
        xmpp_conn_release(conn)
    }

    /// libstrophe finished SASL, bind and session on `conn`.
    func sessionEstablished(on conn: OpaquePointer?) {
        guard conn == self.conn else { return }  // a released attempt's late callback
        if case .startSession(let carbonsID) = state.handle(.sessionEstablished) {
            // Carbons before presence, so no copy can slip past between the two.
            sendRaw("<iq type='set' id='\(MarkupEscaper.xmlAttribute.escaping(carbonsID))'><enable xmlns='\(IncomingCarbon.namespace)'/></iq>")
            sendRaw("<presence/>")
        }
    }

    /// The stream on `conn` ended (closed, failed, or never came up).
    func streamEnded(on conn: OpaquePointer?, socketError: Int32, streamErrorCondition: String?) {
        guard let conn, conn == self.conn else { return }  // a released attempt's late callback
        ConnectSockets.clear(conn)  // libstrophe has closed it
        evidence.socketError = socketError
        if let streamErrorCondition { evidence.streamErrorCondition = streamErrorCondition }
        if let rejection = CertificateRejections.take(conn) { evidence.certificateRejection = rejection }
        let failure: XMPPError.Kind? = state.phase == .connecting ? evidence.failureKind
            : evidence.streamErrorCondition.map { .streamError($0) }
        switch state.handle(.streamClosed(failure: failure)) {
        case .reportConnectFailure(let kind):
            lastFailure = XMPPError(kind: kind, endpoint: endpoint.description, detail: evidence.detail)
        case .reportConnectionLost(let kind):
            let error = XMPPError(kind: kind, endpoint: endpoint.description, detail: evidence.detail)
            lastFailure = error
            emit(.connectionLost(error, unacknowledged: tracker.unacknowledged))
        default:
            break
        }
    }

    // MARK: the C calls the other files build on

    /// Queues raw bytes on the stream: `xmpp_send_raw` (not the variadic
    /// `xmpp_send_raw_string`) copies them, so no buffer outlives the call.
    /// False when there is no connection to write to.
    @discardableResult
    func write(_ text: inout String) -> Bool {
        guard let conn else { return false }
        text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmpp_send_raw(conn, $0.baseAddress, $0.count) }
        }
        return true
    }

    var hasStream: Bool { conn != nil }

    /// One `xmpp_run_once` (where libstrophe sets up TLS, with this connection's trust),
    /// then the keep-alive check and event delivery. When it
    /// brought events, what the server sent already is read too before they are handed
    /// on (libstrophe reads one TLS record a turn, a stanza), until two turns bring no
    /// stanza or `eventBatchLimit` events wait: a burst reaches `onEvent` as one batch
    /// (one cache transaction for its messages), a lone message at once. Two, because a
    /// turn may bring only what the handler never sees (the server's `<r/>`).
    func runOnce(milliseconds: Int64) {
        guard let ctx else { return }
        strophe_trust_use(trust)
        xmpp_run_once(ctx, UInt(max(0, milliseconds)))
        var heard = stanzasHeard
        var quietTurns = pendingEvents.isEmpty ? 2 : 0
        while quietTurns < 2 && pendingEvents.count < Self.eventBatchLimit && conn != nil {
            xmpp_run_once(ctx, 0)
            if stanzasHeard == heard { quietTurns += 1 } else { quietTurns = 0 }
            heard = stanzasHeard
        }
        strophe_trust_use(nil)
        checkKeepAlive()
        deliverEvents()
    }

    /// Events read ahead before a batch is handed on.
    static let eventBatchLimit = 2000

    /// Seconds on a monotonic clock, for keep-alive.
    var monotonicNow: Double {
        let d = ContinuousClock.now - clockOrigin
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

@available(*, unavailable)
extension XMPPConnection: Sendable {}
