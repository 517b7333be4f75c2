#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CStrophe
import Synchronization

/// `xmpp_initialize` once, on first use (not at program start: startup time matters).
private let stropheLibraryInitialized: Void = { xmpp_initialize() }()

/// One XMPP client connection through libstrophe. Not Sendable: the thread that
/// creates it runs its event loop (inside connect/disconnect/ping/pump), so a
/// `Sendable` façade must confine it to one dedicated thread, never the Swift
/// concurrency pool. The only type that touches `xmpp_ctx_t`/`xmpp_conn_t`.
public final class XMPPConnection {
    private let ctx: OpaquePointer
    /// A fresh `xmpp_conn_t` per connect attempt, so no state leaks between attempts.
    private var conn: OpaquePointer?
    /// libstrophe keeps a pointer to this struct for the life of `ctx`.
    private let logHandler: UnsafeMutablePointer<xmpp_log_t>
    /// The userdata of every callback: the unretained `self`, cleared first in deinit,
    /// because `xmpp_conn_release` of a live connection calls the connection handler.
    private let callbackTarget: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    private var state = ChatSessionState()
    private var evidence = ConnectEvidence()
    private var ledger = StreamManagementLedger()
    private var endpoint = ChatEndpoint(security: .startTLS, host: "", port: 0)
    private var verboseLog: (@Sendable (String) -> Void)?
    private var secrets: [String] = []
    private var lastFailure: XMPPError?
    private var nextStanzaNumber = 0
    /// Replies to our own IQs (ping), by id: nil while outstanding.
    private var iqReplies: [String: IQReply?] = [:]

    struct IQReply: Equatable { var type: String }

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
        ledger = StreamManagementLedger()
        lastFailure = nil
        iqReplies = [:]

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
    public var streamManagement: StreamManagementLedger { ledger }

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
        guard state.phase == .connected, let domain = serverDomain else {
            throw XMPPError(kind: .disconnected, endpoint: endpoint.description, detail: "")
        }
        let id = makeStanzaID("ping")
        iqReplies[id] = .some(nil)
        let start = ContinuousClock.now
        sendRaw("<iq type='get' id='\(id.xmlEscaped)' to='\(domain.xmlEscaped)'><ping xmlns='urn:xmpp:ping'/></iq>")
        runLoop(until: start + .milliseconds(Int64(max(0, timeout) * 1000))) { connection in
            connection.state.phase != .connected || connection.iqReplies[id] != .some(nil)
        }
        let reply = iqReplies.removeValue(forKey: id) ?? nil
        if reply != nil {
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
        runLoop(until: deadline) { $0.ledger.status != .pending || $0.state.phase != .connected }
        let target = ledger.sentCount
        if ledger.status == .enabled {
            sendRaw("<r xmlns='urn:xmpp:sm:3'/>", countsAsStanza: false)
            runLoop(until: deadline) { connection in
                connection.state.phase != .connected || connection.ledger.isAcknowledged(target)
            }
            if ledger.isAcknowledged(target) { return target }
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
                        detail: "server acknowledged \(ledger.acknowledgedCount) of \(target) stanzas within \(timeout) s")
    }

    /// Runs libstrophe's event loop for about `timeout` seconds on this thread:
    /// delivers incoming stanzas and SM acks, answers server pings, flushes sends.
    public func pump(timeout: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        runLoop(until: deadline) { _ in false }
    }

    // MARK: event loop

    /// `xmpp_run_once` in slices until `done` or the deadline; always returns by the deadline.
    private func runLoop(until deadline: ContinuousClock.Instant, _ done: (XMPPConnection) -> Bool) {
        while !done(self) {
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { return }
            let ms = min(50, max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            xmpp_run_once(ctx, UInt(ms))
        }
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

    /// Queues raw XML on the stream; stanzas are counted for stream management.
    /// `xmpp_send_raw` (not the variadic `xmpp_send_raw_string`).
    @discardableResult
    func sendRaw(_ xml: String, countsAsStanza: Bool = true) -> UInt32? {
        guard let conn else { return nil }
        var bytes = Array(xml.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmpp_send_raw(conn, $0, buffer.count)
            }
        }
        return countsAsStanza ? ledger.recordSent() : nil
    }

    func makeStanzaID(_ prefix: String) -> String {
        nextStanzaNumber += 1
        return "chatctl-\(prefix)-\(nextStanzaNumber)"
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
            case .reportConnectFailure(let kind), .reportConnectionLost(let kind):
                lastFailure = XMPPError(kind: kind, endpoint: endpoint.description, detail: evidence.detail)
            default:
                break
            }
        default:
            break
        }
    }

    fileprivate func handleStanza(_ stanza: OpaquePointer) {
        let name = xmpp_stanza_get_name(stanza).map { String(cString: $0) } ?? ""
        let ns = xmpp_stanza_get_ns(stanza).map { String(cString: $0) }
        if ns == "urn:xmpp:sm:3" {
            switch name {
            case "enabled": ledger.enabled()
            case "failed": ledger.failed()
            case "a":
                if let h = xmpp_stanza_get_attribute(stanza, "h").flatMap({ UInt32(String(cString: $0)) }) {
                    _ = ledger.acknowledge(h: h)
                }
            default: break
            }
            return
        }
        if name == "iq" {
            let type = xmpp_stanza_get_type(stanza).map { String(cString: $0) } ?? ""
            let id = xmpp_stanza_get_id(stanza).map { String(cString: $0) } ?? ""
            if (type == "result" || type == "error"), iqReplies[id] == .some(nil) {
                iqReplies[id] = IQReply(type: type)
            } else if type == "get", xmpp_stanza_get_child_by_name_and_ns(stanza, "ping", "urn:xmpp:ping") != nil {
                // Servers ping idle clients (XEP-0199); not answering gets us dropped.
                let from = xmpp_stanza_get_from(stanza).map { String(cString: $0) }
                let to = from.map { " to='\($0.xmlEscaped)'" } ?? ""
                sendRaw("<iq type='result' id='\(id.xmlEscaped)'\(to)/>")
            }
        }
    }

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
    /// For attribute values in single quotes and text nodes.
    var xmlEscaped: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for ch in self {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&apos;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }
}
