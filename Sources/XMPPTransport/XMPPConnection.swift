#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CStrophe
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// `xmpp_initialize` once, on first use (not at program start: startup time matters).
private let stropheLibraryInitialized: Void = { xmpp_initialize() }()

/// One XMPP client connection through libstrophe. Not Sendable: the thread that
/// creates it runs its event loop (inside connect/disconnect/ping/join/pump), so a
/// `Sendable` façade must confine it to one dedicated thread, never the Swift
/// concurrency pool (other threads hand it work through a mailbox). Incoming traffic, delivery
/// acks and connection loss reach `onEvent` on that thread. The only type that
/// touches libstrophe's `xmpp_ctx_t`/`xmpp_conn_t`/`xmpp_stanza_t`.
public final class XMPPConnection {
    private let ctx: OpaquePointer
    /// A fresh `xmpp_conn_t` per connect attempt, so no state leaks between attempts.
    private var conn: OpaquePointer?
    /// libstrophe keeps a pointer to this struct for the life of `ctx`.
    private let logHandler: UnsafeMutablePointer<xmpp_log_t>
    /// The userdata of every callback: the unretained `self`, cleared first in deinit,
    /// because `xmpp_conn_release` of a live connection calls the connection handler.
    private let callbackTarget: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// Decides the lifecycle, room joins, IQ replies and keep-alive; this class performs.
    var state = ChatSessionState()
    private var evidence = ConnectEvidence()
    var tracker = DeliveryTracker()
    private var endpoint = ChatEndpoint(security: .startTLS, host: "", port: 0)
    var endpointDescription: String { endpoint.description }
    fileprivate var verboseLog: (@Sendable (String) -> Void)?
    private var secrets: [String] = []
    private var lastFailure: XMPPError?
    var options = ChatConnectOptions()
    var idGenerator = ObjectIDGenerator()
    /// Events waiting for `deliverEvents` (never delivered from inside a libstrophe callback).
    private var pendingEvents: [ChatEvent] = []
    private var deliveringEvents = false
    private let clockOrigin = ContinuousClock.now

    /// Receives incoming messages, markers, chat states, bounces, delivery acks and
    /// connection loss, on the owning thread, while `pump` (or another blocking call) runs.
    public var onEvent: ((ChatEvent) -> Void)?

    public init() {
        _ = stropheLibraryInitialized
        callbackTarget = .allocate(capacity: 1)
        callbackTarget.initialize(to: nil)
        logHandler = .allocate(capacity: 1)
        logHandler.initialize(to: xmpp_log_t(handler: stropheLogCallback, userdata: UnsafeMutableRawPointer(callbackTarget)))
        guard let ctx = xmpp_ctx_new(nil, logHandler) else {
            preconditionFailure("xmpp_ctx_new failed (out of memory)")
        }
        self.ctx = ctx
        callbackTarget.pointee = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        callbackTarget.pointee = nil
        if let conn {
            CertificateRejections.clear(conn)
            xmpp_conn_release(conn)
        }
        xmpp_ctx_free(ctx)
        logHandler.deinitialize(count: 1)
        logHandler.deallocate()
        callbackTarget.deinitialize(count: 1)
        callbackTarget.deallocate()
    }

    // MARK: public API

    /// Blocks until the session is established (TLS, SASL PLAIN, bind, session,
    /// initial presence) or fails. Calling it while connected or connecting is not an error.
    public func connect(jid: String, password: String, endpoint: ChatEndpoint, options: ChatConnectOptions) throws(XMPPError) {
        if state.phase == .disconnecting { disconnect(timeout: 2) }
        guard state.handle(.connectRequested) == .startConnect else { return }

        self.endpoint = endpoint
        verboseLog = options.verboseLog
        secrets = [password]
        evidence = ConnectEvidence()
        tracker = DeliveryTracker(requestEvery: options.ackRequestInterval)
        self.options = options
        lastFailure = nil

        releaseConnection()
        guard let conn = xmpp_conn_new(ctx) else { preconditionFailure("xmpp_conn_new failed (out of memory)") }
        self.conn = conn

        var flags: Int = 0
        switch endpoint.security {
        case .directTLS: flags |= Int(XMPP_CONN_FLAG_LEGACY_SSL)
        case .startTLS: if !options.allowPlaintext { flags |= Int(XMPP_CONN_FLAG_MANDATORY_TLS) }
        }
        // Never XMPP_CONN_FLAG_TRUST_TLS: certificates are always verified.
        precondition(xmpp_conn_set_flags(conn, flags) == XMPP_EOK, "xmpp_conn_set_flags on a fresh connection")
        xmpp_conn_set_jid(conn, jid)
        xmpp_conn_set_pass(conn, password)
        if let caFile = options.caFile { xmpp_conn_set_cafile(conn, caFile) }
        // Stanzas and TLS records go out as small writes: without TCP_NODELAY,
        // Nagle's algorithm meets the server's delayed ACK and each exchange
        // can stall ~40 ms (measured: the end of a login waited 41 ms).
        xmpp_conn_set_sockopt_callback(conn) { _, socket in
            guard let fd = socket?.assumingMemoryBound(to: Int32.self).pointee else { return 0 }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return 0
        }
        xmpp_conn_set_certfail_handler(conn, certificateFailureCallback)
        let me = UnsafeMutableRawPointer(callbackTarget)
        // The one catch-all stanza handler; routing happens in handleStanza.
        xmpp_handler_add(conn, stanzaCallback, nil, nil, nil, me)

        guard endpoint.port > 0, endpoint.port <= 65535 else {
            _ = state.handle(.streamClosed(failure: .cannotConnect))
            throw XMPPError(kind: .cannotConnect, endpoint: endpoint.description, detail: "invalid port \(endpoint.port)")
        }
        let rc = xmpp_connect_client(conn, endpoint.host, UInt16(endpoint.port), connectionCallback, me)
        if rc != XMPP_EOK {
            _ = state.handle(.streamClosed(failure: .cannotConnect))
            throw XMPPError(kind: .cannotConnect, endpoint: endpoint.description,
                            detail: "cannot start connecting (libstrophe error \(rc))")
        }

        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, options.timeout) * 1000))
        runLoop(until: deadline) { $0.state.phase != .connecting }
        if state.phase == .connecting {
            _ = state.handle(.deadlinePassed)
            abortConnection()
            throw XMPPError(kind: .timedOut, endpoint: endpoint.description,
                            detail: "no session within \(options.timeout) s\(evidence.tcpConnected ? " (TCP connected, server did not finish the XMPP handshake)" : "")")
        }
        guard state.phase == .connected else {
            throw lastFailure ?? XMPPError(kind: .cannotConnect, endpoint: endpoint.description, detail: evidence.detail)
        }
        _ = state.handle(.keepAliveStarted(interval: options.keepAliveInterval, timeout: options.keepAliveTimeout, now: monotonicNow))
    }

    public var isConnected: Bool { state.phase == .connected }

    /// The session phase (for `status` and diagnostics).
    public var phase: ChatSessionState.Phase { state.phase }

    /// The full JID the server bound, after connect.
    public var boundJID: String? {
        guard state.phase == .connected, let conn, let jid = xmpp_conn_get_bound_jid(conn) else { return nil }
        return String(cString: jid)
    }

    /// XEP-0198 state: whether the server answered `<enabled/>`, stanzas sent and
    /// acknowledged. Right after connect the status may still be `.pending`;
    /// `waitForAcknowledgement`, `ping` or `pump` settle it.
    public var streamManagement: StreamManagementLedger { tracker.ledger }

    /// Closes the stream politely (waits at most `timeout` seconds).
    public func disconnect(timeout: Double = 2) {
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

    /// XEP-0199 ping to the server; returns the round trip in seconds.
    public func ping(timeout: Double = 10) throws(XMPPError) -> Double {
        guard state.phase == .connected, serverDomain != nil, case .sendPing(let id) = state.handle(.pingRequested) else {
            throw XMPPError(kind: .disconnected, endpoint: endpoint.description, detail: "")
        }
        let start = ContinuousClock.now
        sendPing(id: id)
        runLoop(until: start + .milliseconds(Int64(max(0, timeout) * 1000))) { connection in
            connection.state.phase != .connected || connection.state.isAnswered(ping: id)
        }
        let answered = state.isAnswered(ping: id)
        _ = state.handle(.pingFinished(id: id))
        if answered {
            // An error reply (feature-not-implemented) still proves the round trip.
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        if state.phase != .connected {
            throw lastFailure ?? XMPPError(kind: .disconnected, endpoint: endpoint.description, detail: "connection lost during ping")
        }
        throw XMPPError(kind: .timedOut, endpoint: endpoint.description, detail: "no ping reply within \(timeout) s")
    }

    /// Blocks until the server has acknowledged (XEP-0198 `<a h/>`) every stanza sent
    /// so far; returns how many that is. libstrophe 0.12 answers the server's `<r/>`
    /// but never asks for acks itself, so this sends `<r/>`. Without SM (server said
    /// `<failed/>` or never answered `<enable/>`), a ping round trip is the barrier:
    /// the server has processed everything sent before its reply.
    @discardableResult
    public func waitForAcknowledgement(timeout: Double = 10) throws(XMPPError) -> UInt32 {
        guard state.phase == .connected else {
            throw XMPPError(kind: .disconnected, endpoint: endpoint.description, detail: "")
        }
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int64(max(0, timeout) * 1000))
        // Right after connect the answer to <enable/> may still be on its way.
        runLoop(until: deadline) { $0.tracker.ledger.status != .pending || $0.state.phase != .connected }
        let target = tracker.ledger.sentCount
        if tracker.ledger.status == .enabled {
            sendRaw("<r xmlns='urn:xmpp:sm:3'/>", countsAsStanza: false)
            runLoop(until: deadline) { connection in
                connection.state.phase != .connected || connection.tracker.isAcknowledged(target)
            }
            if tracker.isAcknowledged(target) { return target }
        } else if state.phase == .connected {
            let remaining = deadline - ContinuousClock.now
            let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
            _ = try ping(timeout: max(0, seconds))
            return target
        }
        if state.phase != .connected {
            throw lastFailure ?? XMPPError(kind: .disconnected, endpoint: endpoint.description, detail: "connection lost before the server acknowledged")
        }
        throw XMPPError(kind: .timedOut, endpoint: endpoint.description,
                        detail: "server acknowledged \(tracker.ledger.acknowledgedCount) of \(target) stanzas within \(timeout) s")
    }

    /// Runs libstrophe's event loop for about `timeout` seconds on this thread:
    /// flushes queued sends (first asking for an ack of anything unrequested, since
    /// the caller has stopped sending for now), delivers events to `onEvent`, answers
    /// server pings, keeps the connection alive. Always runs at least one iteration,
    /// so `pump(timeout: 0)` flushes and polls without waiting. With `until`, it waits
    /// in 10 ms slices and returns as soon as `until()` is true (e.g. another thread
    /// posted work for this one).
    public func pump(timeout: Double, until: (() -> Bool)? = nil) {
        if state.phase == .connected {
            switch tracker.sendQueueIdle() {
            case .none: break
            case .requestAck: requestAcknowledgement()
            case .pingBarrier: sendBarrierPing()
            }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        runOnce(milliseconds: 0)
        if let until {
            runLoop(until: deadline, sliceMilliseconds: 10) { _ in until() }
        } else {
            runLoop(until: deadline) { _ in false }
        }
    }

    // MARK: event loop

    /// `xmpp_run_once` in slices until `done` or the deadline; always returns by the deadline.
    func runLoop(until deadline: ContinuousClock.Instant, sliceMilliseconds: Int64 = 50, _ done: (XMPPConnection) -> Bool) {
        while !done(self) {
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { return }
            let ms = min(sliceMilliseconds, max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            runOnce(milliseconds: ms)
        }
    }

    /// One `xmpp_run_once`, then the keep-alive check and event delivery.
    private func runOnce(milliseconds: Int64) {
        xmpp_run_once(ctx, UInt(max(0, milliseconds)))
        if state.phase == .connected { perform(state.handle(.tick(now: monotonicNow))) }
        deliverEvents()
    }

    var monotonicNow: Double {
        let d = ContinuousClock.now - clockOrigin
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    func emit(_ event: ChatEvent) { pendingEvents.append(event) }

    /// Hands queued events to `onEvent`; not re-entered if the handler itself runs the loop.
    private func deliverEvents() {
        guard !deliveringEvents, !pendingEvents.isEmpty else { return }
        deliveringEvents = true
        defer { deliveringEvents = false }
        while !pendingEvents.isEmpty {
            var batch: [ChatEvent] = []
            swap(&batch, &pendingEvents)
            if let onEvent { for event in batch { onEvent(event) } }
        }
    }

    private func sendBarrierPing() {
        guard case .sendPing(let id) = state.handle(.barrierRequested), let sequence = sendPing(id: id) else { return }
        _ = state.handle(.barrierQueued(id: id, sequence: sequence))
        tracker.barrierSent()
    }

    /// `<iq type="get"><ping/></iq>` to the server; returns its sequence number.
    @discardableResult
    private func sendPing(id: String) -> UInt32? {
        guard let domain = serverDomain else { return nil }
        return sendRaw("<iq type='get' id='\(id.xmlEscaped)' to='\(domain.xmlEscaped)'><ping xmlns='urn:xmpp:ping'/></iq>")
    }

    /// Carries out what the session state decided about incoming traffic and time.
    /// Lifecycle and room actions are performed where they are asked for
    /// (connect, disconnect, join, leave), which wait for their outcome.
    private func perform(_ action: ChatSessionState.Action) {
        switch action {
        case .sendPing(let id):
            sendPing(id: id)
        case .answerPing(let id, let to):
            sendRaw("<iq type='result' id='\(id.xmlEscaped)'\(to.map { " to='\($0.xmlEscaped)'" } ?? "")/>")
        case .acknowledge(let sequence):
            let ids = tracker.acknowledge(h: sequence)
            if !ids.isEmpty { emit(.delivered(ids)) }
        case .abortSilentConnection(let timeout):
            abortConnection()
            let error = XMPPError(kind: .timedOut, endpoint: endpoint.description,
                                  detail: "no answer to a keep-alive ping within \(Self.format(timeout)) s")
            lastFailure = error
            emit(.connectionLost(error, unacknowledged: tracker.unacknowledged))
        case .none, .startConnect, .sendInitialPresence, .abortConnect, .closeStream, .reportConnectFailure,
             .reportConnectionLost, .reportDisconnected, .sendJoinPresence, .sendLeavePresence:
            break
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// Closes the socket at once, without the closing handshake (deadlines passed).
    /// `xmpp_conn_release` closes a live socket synchronously; its disconnect
    /// callback is ignored because `self.conn` is already nil by then.
    private func abortConnection() {
        releaseConnection()
    }

    private func releaseConnection() {
        guard let conn else { return }
        CertificateRejections.clear(conn)
        self.conn = nil
        xmpp_conn_release(conn)
    }

    // MARK: sending

    /// Queues raw XML on the stream; stanzas are counted for stream management
    /// (with the message id they carry, if tracked), and an ack is requested every
    /// `ackRequestInterval` stanzas. `xmpp_send_raw` (not the variadic
    /// `xmpp_send_raw_string`); it copies the bytes, so no buffer outlives the call.
    @discardableResult
    func sendRaw(_ xml: String, countsAsStanza: Bool = true, messageID: ObjectID? = nil) -> UInt32? {
        guard let conn else { return nil }
        var xml = xml
        xml.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmpp_send_raw(conn, $0.baseAddress, $0.count) }
        }
        guard countsAsStanza else { return nil }
        let (sequence, requestAck) = tracker.recordSent(messageID: messageID)
        if requestAck { requestAcknowledgement() }
        return sequence
    }

    /// Queues several stanzas as one write (one libstrophe queue item, one TLS record
    /// per ~32 KB instead of one per stanza), counting each for stream management.
    /// libstrophe's own SM counter then counts chunks, not stanzas; it only uses that
    /// counter for resumption, which this client never asks for.
    func sendRawBatch(_ stanzas: [(xml: String, messageID: ObjectID?)]) -> [UInt32]? {
        guard let conn else { return nil }
        var sequences: [UInt32] = []
        sequences.reserveCapacity(stanzas.count)
        var chunk = ""
        chunk.reserveCapacity(36 * 1024)
        func flush() {
            guard !chunk.isEmpty else { return }
            chunk.withUTF8 { buffer in
                buffer.withMemoryRebound(to: CChar.self) { xmpp_send_raw(conn, $0.baseAddress, $0.count) }
            }
            chunk.removeAll(keepingCapacity: true)
        }
        for stanza in stanzas {
            chunk += stanza.xml
            let (sequence, requestAck) = tracker.recordSent(messageID: stanza.messageID)
            sequences.append(sequence)
            if requestAck { chunk += "<r xmlns='urn:xmpp:sm:3'/>" }
            if chunk.utf8.count >= 32 * 1024 { flush() }
        }
        flush()
        return sequences
    }

    /// `<r/>`: not a stanza, so not counted.
    func requestAcknowledgement() {
        sendRaw("<r xmlns='urn:xmpp:sm:3'/>", countsAsStanza: false)
    }

    private var serverDomain: String? {
        guard let jid = boundJID else { return nil }
        let bare = jid.split(separator: "/", maxSplits: 1).first ?? ""
        guard let at = bare.lastIndex(of: "@") else { return String(bare) }
        return String(bare[bare.index(after: at)...])
    }

    // MARK: callbacks (all on the thread inside xmpp_run_once)

    fileprivate func handleLog(level: xmpp_log_level_t, area: String, message: String) {
        evidence.observe(area: area, message: message, isError: level == XMPP_LEVEL_ERROR)
        if let verboseLog, let line = StropheLogRedactor.sanitize(area: area, message: message, secrets: secrets) {
            verboseLog(line)
        }
    }

    fileprivate func handleConnectionEvent(_ conn: OpaquePointer?, event: xmpp_conn_event_t, error: Int32,
                                           streamError: UnsafeMutablePointer<xmpp_stream_error_t>?) {
        guard conn == self.conn else { return }  // a released attempt's late callback
        switch event {
        case XMPP_CONN_CONNECT:
            if state.handle(.sessionEstablished) == .sendInitialPresence {
                sendRaw("<presence/>")
            }
        case XMPP_CONN_DISCONNECT, XMPP_CONN_FAIL:
            evidence.socketError = error
            if let streamError, let condition = Self.streamErrorCondition(streamError.pointee) {
                evidence.streamErrorCondition = condition
            }
            if let conn, let rejection = CertificateRejections.take(conn) {
                evidence.certificateRejection = rejection
            }
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
        default:
            break
        }
    }

    fileprivate func handleStanza(_ stanza: OpaquePointer) {
        _ = state.handle(.heard(now: monotonicNow))
        let name = xmpp_stanza_get_name(stanza).map { String(cString: $0) } ?? ""
        let ns = xmpp_stanza_get_ns(stanza).map { String(cString: $0) }
        if ns == "urn:xmpp:sm:3" {
            switch name {
            case "enabled": tracker.enabled()
            case "failed": tracker.failed()
            case "a":
                if let h = xmpp_stanza_get_attribute(stanza, "h").flatMap({ UInt32(String(cString: $0)) }) {
                    let ids = tracker.acknowledge(h: h)
                    if !ids.isEmpty { emit(.delivered(ids)) }
                }
            default: break
            }
            return
        }
        if name == "message" {
            let element = Self.element(from: stanza)
            if let event = ChatEvent.parse(element, receivedAt: Self.unixNow()) { emit(event) }
            return
        }
        if name == "presence" {
            if let presence = RoomPresence(Self.element(from: stanza)) { perform(state.handle(.roomPresence(presence))) }
            return
        }
        if name == "iq" {
            perform(state.handle(.iqReceived(
                type: xmpp_stanza_get_type(stanza).map { String(cString: $0) } ?? "",
                id: xmpp_stanza_get_id(stanza).map { String(cString: $0) } ?? "",
                from: xmpp_stanza_get_from(stanza).map { String(cString: $0) },
                isPing: xmpp_stanza_get_child_by_name_and_ns(stanza, "ping", "urn:xmpp:ping") != nil)))
        }
    }

    /// Copies a libstrophe stanza into a `StanzaElement` (the only place that reads
    /// incoming stanza trees). Text nodes via `xmpp_stanza_get_text_ptr`: no copy to free.
    static func element(from stanza: OpaquePointer) -> StanzaElement {
        var element = StanzaElement(xmpp_stanza_get_name(stanza).map { String(cString: $0) } ?? "")
        element.namespace = xmpp_stanza_get_ns(stanza).map { String(cString: $0) }
        let count = Int(xmpp_stanza_get_attribute_count(stanza))
        if count > 0 {
            var pairs = [UnsafePointer<CChar>?](repeating: nil, count: count * 2)
            let filled = Int(xmpp_stanza_get_attributes(stanza, &pairs, Int32(count * 2)))
            var i = 0
            while i + 1 < min(filled, pairs.count) {
                if let key = pairs[i], let value = pairs[i + 1] {
                    let name = String(cString: key)
                    if name != "xmlns" { element.attributes.append(.init(name, String(cString: value))) }
                }
                i += 2
            }
        }
        var child = xmpp_stanza_get_children(stanza)
        while let current = child {
            if xmpp_stanza_is_text(current) != 0 {
                if let text = xmpp_stanza_get_text_ptr(current) { element.text += String(cString: text) }
            } else if xmpp_stanza_is_tag(current) != 0 {
                element.children.append(Self.element(from: current))
            }
            child = xmpp_stanza_get_next(current)
        }
        return element
    }

    /// Parses one XML element with libstrophe's own parser (`xmpp_stanza_new_from_string`)
    /// and copies it like an incoming stanza: lets tests feed real XML text through
    /// the same bridge without a socket. Nil when libstrophe cannot parse it.
    static func element(parsingXML xml: String) -> StanzaElement? {
        _ = stropheLibraryInitialized
        guard let ctx = xmpp_ctx_new(nil, nil) else { preconditionFailure("xmpp_ctx_new failed (out of memory)") }
        defer { xmpp_ctx_free(ctx) }
        guard let stanza = xmpp_stanza_new_from_string(ctx, xml) else { return nil }
        defer { xmpp_stanza_release(stanza) }
        return element(from: stanza)
    }

    static func unixNow() -> Int { Int(Date().timeIntervalSince1970) }

    private static func streamErrorCondition(_ error: xmpp_stream_error_t) -> String? {
        if let stanza = error.stanza {
            var child = xmpp_stanza_get_children(stanza)
            while let current = child {
                if xmpp_stanza_is_tag(current) != 0,
                   let ns = xmpp_stanza_get_ns(current), String(cString: ns) == "urn:ietf:params:xml:ns:xmpp-streams",
                   let name = xmpp_stanza_get_name(current), String(cString: name) != "text" {
                    return String(cString: name)
                }
                child = xmpp_stanza_get_next(current)
            }
        }
        return streamErrorNames[Int(error.type.rawValue)] ?? "undefined-condition"
    }

    /// `xmpp_error_type_t` in declaration order.
    private static let streamErrorNames: [Int: String] = {
        let names = ["bad-format", "bad-namespace-prefix", "conflict", "connection-timeout", "host-gone",
                     "host-unknown", "improper-addressing", "internal-server-error", "invalid-from", "invalid-id",
                     "invalid-namespace", "invalid-xml", "not-authorized", "policy-violation",
                     "remote-connection-failed", "resource-constraint", "restricted-xml", "see-other-host",
                     "system-shutdown", "undefined-condition", "unsupported-encoding", "unsupported-stanza-type",
                     "unsupported-version", "not-well-formed"]
        return Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.offset, $0.element) })
    }()
}

@available(*, unavailable)
extension XMPPConnection: Sendable {}

// MARK: C trampolines (no captures; userdata is `callbackTarget`)

/// The connection behind a callback's userdata, or nil once it is being deinitialized.
private func callbackConnection(_ userdata: UnsafeMutableRawPointer?) -> XMPPConnection? {
    guard let target = userdata?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee else { return nil }
    return Unmanaged<XMPPConnection>.fromOpaque(target).takeUnretainedValue()
}

private let stropheLogCallback: xmpp_log_handler = { userdata, level, area, message in
    guard let connection = callbackConnection(userdata) else { return }
    // libstrophe logs every stanza at debug level; once connected, only --verbose wants them.
    if level == XMPP_LEVEL_DEBUG, connection.verboseLog == nil, connection.phase == .connected { return }
    connection.handleLog(level: level, area: area.map { String(cString: $0) } ?? "",
                         message: message.map { String(cString: $0) } ?? "")
}

private let connectionCallback: xmpp_conn_handler = { conn, event, error, streamError, userdata in
    callbackConnection(userdata)?.handleConnectionEvent(conn, event: event, error: error, streamError: streamError)
}

private let stanzaCallback: xmpp_handler = { _, stanza, userdata in
    guard let stanza, let connection = callbackConnection(userdata) else { return 1 }
    connection.handleStanza(stanza)
    return 1  // keep the handler
}

/// The certfail handler has no userdata, so rejections are parked by connection
/// address until the disconnect callback collects them. Returning 0 always: an
/// unverifiable certificate fails the connect, never gets accepted.
private let certificateFailureCallback: xmpp_certfail_handler = { cert, errorMessage in
    if let cert, let conn = xmpp_tlscert_get_conn(cert) {
        CertificateRejections.record(conn, errorMessage.map { String(cString: $0) } ?? "certificate not trusted")
    }
    return 0
}

private enum CertificateRejections {
    static let byConnection = Mutex<[UInt: String]>([:])
    static func record(_ conn: OpaquePointer, _ message: String) {
        byConnection.withLock { $0[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(conn)))] = message }
    }
    static func take(_ conn: OpaquePointer) -> String? {
        byConnection.withLock { $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(conn)))) }
    }
    static func clear(_ conn: OpaquePointer) { _ = take(conn) }
}

extension String {
    /// For attribute values (either quote) and text nodes: StanzaElement's escaping.
    var xmlEscaped: String {
        var out = ""
        StanzaElement.appendEscaped(self, to: &out, inAttribute: true)
        return out
    }
}
