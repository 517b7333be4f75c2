internal import CEvent
#if canImport(Glibc)
import Glibc
#endif

/// The server side of one client's connection: a TCP bufferevent (OpenSSL-filtered
/// after STARTTLS, or from the first byte on the direct-TLS port) or a WebSocket
/// (`WebSocketChannel`), an expat stream parser and the pure `XMPPSession` it drives.
/// Lives on the event loop thread; owned by `XMPPServer`, which drops it once closed.
final class XMPPClientConnection {
    /// How the client reached the sandbox (docs/protocol.md §1).
    enum Transport: Equatable {
        /// TCP; STARTTLS offered.
        case tcp
        /// TCP with TLS from the first byte; no STARTTLS.
        case directTLS
        /// XMPP over WebSocket (RFC 7395): one element per message.
        case webSocket
    }

    let number: Int
    let peer: String
    let transport: Transport
    private(set) var session: XMPPSession
    private unowned let server: XMPPServer
    private let parser: XMLStreamParser
    private var bufferEvent: OpaquePointer?     // struct bufferevent*, TCP only
    /// The WebSocket's end on the loop, for `.webSocket`.
    let webSocket: WebSocketChannel?
    private var timer: OpaquePointer?           // struct event*
    /// Set by an action that must wait until the parser is outside expat.
    private var pendingRestart: Restart?
    private enum Restart { case stream, tls }
    private(set) var isClosing = false
    private var isFinished = false
    private let openedAt: Double
    private var lastActivity: Double
    private var closeDeadline = 0.0
    /// Direct TLS: the handshake has finished (before that nothing can be said).
    private var handshakeDone = false
    /// Why the connection ends, when that is worth a line at info level.
    private var closeReason: String?
    /// Stanzas sent and not yet acknowledged, once the client asked for resumption (XEP-0198 §5).
    private var unacknowledged: UnacknowledgedStanzas?
    /// What this turn of the loop wrote, sent once the turn's writes are committed (`TurnCommit`):
    /// bytes for TCP, whole elements for a WebSocket (one per message).
    private var heldBytes: [UInt8] = []
    /// What the last read took from the bufferevent (kept, so a read allocates nothing).
    private var inputBuffer: [UInt8] = []
    private var heldElements: [String] = []
    private var isHolding = false
    /// The connection is gone but the session waits to be resumed, until `hibernationDeadline`:
    /// it stays bound and in its rooms, and what is sent to it is kept.
    private(set) var isHibernating = false
    private var hibernationDeadline = 0.0

    /// What every transport shares: the session, the parser, the timers.
    private init(server: XMPPServer, base: OpaquePointer, transport: Transport, webSocket: WebSocketChannel?, number: Int, peer: String) {
        self.server = server
        self.number = number
        self.peer = peer
        self.transport = transport
        self.webSocket = webSocket
        // STARTTLS only where the stream is not secured (or securable) otherwise.
        session = XMPPSession(domain: server.domain, applicationId: server.applicationId, tlsAvailable: transport == .tcp,
                              maxFailedAuthentications: server.limits.maxFailedAuthentications,
                              resumptionTimeout: server.limits.resumptionTimeout,
                              resumptionCandidate: RequestSignature.hex(SecureRandom.bytes(16)))
        parser = XMLStreamParser(maxElementBytes: server.limits.maxElementBytes, maxDepth: server.limits.maxDepth)
        openedAt = monotonicNow()
        lastActivity = openedAt
        let me = Unmanaged.passUnretained(self).toOpaque()
        timer = event_new(base, -1, 0, { _, _, ctx in
            let connection = Unmanaged<XMPPClientConnection>.fromOpaque(ctx!).takeUnretainedValue()
            withExtendedLifetime(connection) { connection.timerFired() }
        }, me)
        parser.handler = { [unowned self] event in self.parsed(event) }
        armTimer(after: server.limits.preAuthTimeout)
    }

    /// A WebSocket client; its messages arrive through `receive(webSocketMessage:)`.
    convenience init(server: XMPPServer, base: OpaquePointer, webSocket: WebSocketChannel, number: Int, peer: String) {
        self.init(server: server, base: base, transport: .webSocket, webSocket: webSocket, number: number, peer: peer)
    }

    /// A TCP client (`transport` `.tcp` or `.directTLS`) on an accepted socket.
    convenience init(server: XMPPServer, base: OpaquePointer, socket: Int32, transport: Transport, number: Int, peer: String) throws {
        precondition(transport != .webSocket, "a WebSocket has no socket of ours")
        self.init(server: server, base: base, transport: transport, webSocket: nil, number: number, peer: peer)
        // Stanzas go out as several small writes (and TLS records); without
        // TCP_NODELAY, Nagle's algorithm meets the peer's delayed ACK and
        // stalls each exchange by ~40 ms.
        var one: Int32 = 1
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        guard let bev = bufferevent_socket_new(base, socket, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            evutil_closesocket(socket)
            throw XMPPServerError("bufferevent_socket_new failed")
        }
        bufferEvent = bev
        install(on: bev)
        // Direct TLS: the same filter STARTTLS puts on, from the first byte.
        if transport == .directTLS { startTLS() }
    }

    deinit {
        if let bufferEvent { bufferevent_free(bufferEvent) }
        if let timer { event_free(timer) }
    }

    private func install(on bev: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        bufferevent_setcb(bev, { _, ctx in
            let connection = Unmanaged<XMPPClientConnection>.fromOpaque(ctx!).takeUnretainedValue()
            withExtendedLifetime(connection) { connection.readable() }
        }, nil, { _, events, ctx in
            let connection = Unmanaged<XMPPClientConnection>.fromOpaque(ctx!).takeUnretainedValue()
            withExtendedLifetime(connection) { connection.event(events) }
        }, me)
        bufferevent_enable(bev, Int16(EV_READ | EV_WRITE))
    }

    // MARK: input

    private func readable() {
        guard let bev = bufferEvent else { return }
        let input = bufferevent_get_input(bev)
        let length = evbuffer_get_length(input)
        guard length > 0 else { return }
        // Into a buffer kept between reads (all of it: nothing may stay behind for a TLS filter).
        if inputBuffer.count < length { inputBuffer = [UInt8](repeating: 0, count: length) }
        _ = inputBuffer.withUnsafeMutableBytes { evbuffer_remove(input, $0.baseAddress, length) }
        // A thousand streams each keeping their largest read would add up.
        defer { if inputBuffer.count > 16 * 1024 { inputBuffer = [] } }
        guard !isClosing else { return }
        lastActivity = monotonicNow()
        handshakeDone = true  // decrypted bytes: the handshake is over, whatever its event says
        var offset = 0
        while offset < length && !isClosing {
            let result = inputBuffer[offset..<length].withUnsafeBytes { parser.feed($0) }
            switch result {
            case .consumedAll:
                offset = length
            case .failed(let failure):
                streamFailed(failure)
                offset = length
            case .suspended(let consumed):
                offset += consumed
                let restart = pendingRestart
                pendingRestart = nil
                switch restart {
                case .stream?:
                    parser.reset()
                case .tls?:
                    // Nothing may follow <starttls/> in clear text.
                    parser.reset()
                    startTLS()
                    offset = length
                case nil:
                    offset = length
                }
            }
        }
    }

    /// One whole WebSocket message, parsed on its own (RFC 7395 §3.3.3): whole
    /// elements, or the stream ends with a stream error.
    func receive(webSocketMessage message: [UInt8]) {
        guard !isClosing else { return }
        lastActivity = monotonicNow()
        parser.reset()
        let document = WebSocketFraming.document(forMessage: message)
        if case .failed(let failure) = document.withUnsafeBytes({ parser.feed($0) }) { streamFailed(failure) }
    }

    /// The WebSocket went away (either side closed it, or it was lost).
    func webSocketClosed(reason: String) {
        webSocket?.closedByPeer()
        if session.phase != .closed && closeReason == nil { closeReason = reason }
        if canHibernate { hibernate(reason: reason) } else { finish() }
    }

    private func streamFailed(_ failure: XMLStreamFailure) {
        let error = XMPPStreamError(failure)
        if closeReason == nil { closeReason = "stream error \(error.rawValue) (bad input)" }
        perform(session.handle(.fatal(error)))
    }

    /// Expat's callback (inside `XML_Parse`): returns false to suspend the parser.
    private func parsed(_ event: XMLStreamEvent) -> Bool {
        switch event {
        case .streamOpened(let header):
            // Over WebSocket the stream element is the wrapper around each message.
            if transport != .webSocket { perform(session.handle(.streamOpened(header, streamId: Self.newStreamId()))) }
        case .element(let element) where transport == .webSocket && element.namespace == WebSocketFraming.namespace:
            switch element.name {
            case "open": perform(session.handle(.streamOpened(WebSocketFraming.header(fromOpen: element), streamId: Self.newStreamId())))
            case "close": perform(session.handle(.streamClosed))
            default: terminate(.unsupportedStanzaType)
            }
        case .element(let element):
            perform(session.handle(.element(element)))
        case .streamClosed:
            if transport != .webSocket { perform(session.handle(.streamClosed)) }
        }
        return pendingRestart == nil && !isClosing
    }

    private func event(_ events: Int16) {
        if events & Int16(BEV_EVENT_CONNECTED) != 0 {
            server.log.log(.debug, "xmpp #\(number): TLS established")
            if transport == .directTLS {
                handshakeDone = true  // the session was never told about TLS: it offers no STARTTLS
            } else {
                perform(session.handle(.tlsEstablished))
            }
            return
        }
        if events & Int16(BEV_EVENT_ERROR | BEV_EVENT_EOF | BEV_EVENT_TIMEOUT) != 0 {
            var reason = "connection lost"
            if events & Int16(BEV_EVENT_ERROR) != 0 {
                if let tls = openSSLError(), closeReason == nil {
                    closeReason = "TLS error: \(tls)"
                    reason = closeReason!
                } else {
                    server.log.log(.debug, "xmpp #\(number): connection lost (socket error)")
                }
            }
            if canHibernate { hibernate(reason: reason) } else { finish() }
        }
    }

    /// OpenSSL's reason for the last failure on this connection, if TLS failed.
    private func openSSLError() -> String? {
        guard let bev = bufferEvent else { return nil }
        let code = bufferevent_get_openssl_error(bev)
        guard code != 0, let reason = ERR_reason_error_string(code) else { return nil }
        return String(cString: reason)
    }

    // MARK: actions

    private func perform(_ actions: [XMPPSession.Action]) {
        for action in actions {
            switch action {
            case .send(let text):
                // The session's own stream errors (its fixed spelling) are the reason too.
                if closeReason == nil, let start = text.firstRange(of: "<stream:error><") {
                    closeReason = "stream error " + text[start.upperBound...].prefix { $0 != " " && $0 != "/" && $0 != ">" }
                }
                send(text)
            case .startTLS:
                pendingRestart = .tls
            case .restartStream:
                // Each WebSocket message is parsed on its own; the next <open/> starts the new stream.
                if transport != .webSocket { pendingRestart = .stream }
            case .authenticate(let userId, let secret):
                let outcome = server.authenticator.checkChatCredentials(userId: userId, secret: secret)
                switch outcome {
                case .accepted: server.log.log(.info, "xmpp #\(number): user \(userId) authenticated")
                case .refused: server.log.log(.warning, "xmpp #\(number): user \(userId) failed to authenticate")
                case .throttled: server.log.log(.warning, "xmpp #\(number): user \(userId) refused: too many wrong passwords lately")
                }
                perform(session.handle(outcome == .throttled ? .authenticationThrottled(userId: userId)
                                                             : .authenticationChecked(userId: userId, accepted: outcome == .accepted)))
                if session.isAuthenticated { server.stopCountingUnauthenticated(self) }
            case .bindResource(let requested, let iqId):
                let resource = server.bind(self, requested: requested)
                perform(session.handle(.resourceBound(resource, iqId: iqId)))
                server.log.log(.info, "xmpp #\(number): bound \(session.fullJID ?? "?")")
            case .route(let stanza):
                server.route(stanza, from: self)
            case .resumptionEnabled(let id):
                unacknowledged = UnacknowledgedStanzas(requestEvery: server.limits.ackRequestEvery,
                                                       capacity: server.limits.maxUnacknowledgedStanzas)
                server.registerResumable(self, id: id)
            case .acknowledged(let h):
                if case .tooMany(let sent)? = unacknowledged?.acknowledge(h) {
                    server.log.log(.warning, "xmpp #\(number): the client acknowledged \(h) stanzas of \(sent)")
                }
            case .resume(let previd, let h):
                resume(previd, h: h)
            case .close:
                beginClose(grace: server.limits.closeGrace)
            }
        }
    }

    /// Ends the stream with `error` (used for timeouts, shutdown, a replacing session).
    func terminate(_ error: XMPPStreamError, grace: Double? = nil) {
        guard !isClosing else { return }
        server.log.log(.debug, "xmpp #\(number): stream error \(error.rawValue)")
        if closeReason == nil { closeReason = "stream error \(error.rawValue)" }
        perform(session.handle(.fatal(error)))
        if let grace { closeDeadline = min(closeDeadline, monotonicNow() + grace) }
    }

    /// Pushes queued output to the socket now (through OpenSSL when filtered),
    /// for when the loop may not run again (shutdown).
    func flushNow() {
        flushHeld()
        // A WebSocket's thread flushes by itself: ask it to close after the goodbye.
        if let webSocket { return webSocket.close(reason: closeReason ?? "closing") }
        guard let bev = bufferEvent else { return }
        var target = bev
        if let underlying = bufferevent_get_underlying(bev) {
            _ = bufferevent_flush(bev, Int16(EV_WRITE), BEV_FLUSH)
            target = underlying
        }
        let fd = bufferevent_getfd(target)
        guard fd >= 0, let output = bufferevent_get_output(target) else { return }
        // A bufferevent keeps the start of its output frozen so only its own
        // write callback drains it; thaw it just for this one non-blocking write.
        evbuffer_unfreeze(output, 1)
        _ = evbuffer_write(output, fd)
        evbuffer_freeze(output, 1)
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// One element, as bytes (what the router serializes: no String made of it, nor checked
    /// again as UTF-8); kept as it is, not copied, when it must wait for an ack.
    func send(_ bytes: [UInt8]) {
        guard !isFinished else { return }
        if unacknowledged != nil, UnacknowledgedStanzas.isStanza(bytes) {
            let askForAck = unacknowledged!.record(bytes)
            if unacknowledged!.isOverflowing {
                // A live stream still gets it, only no longer kept; a waiting session ends.
                stopKeepingStanzas()
                if !isHibernating && !isFinished { write(bytes) }
                return
            }
            guard !isHibernating else { return }
            write(bytes)
            if askForAck { write(Self.ackRequest) }
            return
        }
        guard !isHibernating else { return }
        write(bytes)
    }

    private static let ackRequest = Array("<r xmlns='\(XMPPNamespace.streamManagement)'/>".utf8)

    /// Onto the wire (or the WebSocket) as it is, at the end of this turn of the loop.
    private func write(_ bytes: [UInt8]) {
        if webSocket != nil {
            heldElements.append(String(decoding: bytes, as: UTF8.self))
        } else {
            guard bufferEvent != nil else { return }
            heldBytes.append(contentsOf: bytes)
        }
        if !isHolding {
            isHolding = true
            server.turn.hold(self)
        }
    }

    /// Hands what this turn wrote to the socket's bufferevent (through TLS: one write, so
    /// few records) or to the WebSocket, once what it reports is committed.
    func flushHeld() {
        isHolding = false
        if isFinished { return discardHeld() }
        if let webSocket {
            for element in heldElements { webSocket.send(element) }
            heldElements.removeAll()
            return
        }
        if let bev = bufferEvent, !heldBytes.isEmpty {
            _ = heldBytes.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) }
        }
        // A burst (a join into a big room) should not pin its buffer for the connection's life.
        heldBytes.removeAll(keepingCapacity: heldBytes.capacity <= 4 * 1024)
        // The goodbye was held for the turn's commit: TLS's close_notify goes after it.
        if isClosing { sendTLSCloseNotify() }
    }

    /// Drops what this turn wrote: the turn's commit failed, so none of it may be said.
    func discardHeld() {
        isHolding = false
        heldBytes.removeAll()
        heldElements.removeAll()
    }

    // MARK: resumption (XEP-0198 §5)

    /// A session that asked for resumption outlives a connection that drops without closing its stream.
    private var canHibernate: Bool {
        unacknowledged != nil && session.phase == .established && !isClosing && !isFinished && !isHibernating
    }

    private func hibernate(reason: String) {
        isHibernating = true
        if let bev = bufferEvent { bufferevent_free(bev) }
        bufferEvent = nil
        let timeout = server.limits.resumptionTimeout
        hibernationDeadline = monotonicNow() + Double(timeout)
        server.log.log(.info, "xmpp #\(number): \(reason); \(session.fullJID ?? "?") kept \(timeout) s for resumption")
        armTimer(after: Double(timeout))
    }

    /// The client does not acknowledge (or has been gone too long): no more resumption.
    private func stopKeepingStanzas() {
        server.log.log(.warning, "xmpp #\(number): more than \(server.limits.maxUnacknowledgedStanzas) stanzas unacknowledged; the session can no longer be resumed")
        unacknowledged = nil
        server.forgetResumable(self)
        if isHibernating {
            closeReason = "too many stanzas waiting for resumption"
            finish()
        }
    }

    /// `<resume previd h/>` on this authenticated stream: take over that session of the same user,
    /// hibernating or (a half-open connection) still live, and send again what it had not acknowledged.
    private func resume(_ previd: String, h: UInt32) {
        guard let userId = session.userId, let previous = server.resumableSession(previd, userId: userId), previous !== self,
              let resumption = previous.session.resumption, var queue = previous.unacknowledged else {
            server.log.log(.info, "xmpp #\(number): cannot resume \(previd)")
            return perform(session.handle(.resumeChecked(nil, previd: previd)))
        }
        if case .tooMany(let sent) = queue.acknowledge(h) {
            server.log.log(.warning, "xmpp #\(number): resuming, the client acknowledged \(h) stanzas of \(sent)")
        }
        perform(session.handle(.resumeChecked(resumption, previd: previd)))
        unacknowledged = queue
        // Sent again under the numbers they had: the client counts them from its `h` on.
        for stanza in queue.pending { write(stanza) }
        server.transferSession(from: previous, to: self)
        previous.closeReason = "resumed on #\(number)"
        previous.finish()
        server.log.log(.info, "xmpp #\(number): resumed \(session.fullJID ?? "?") (#\(previous.number)), \(queue.pending.count) stanzas sent again")
    }

    private func startTLS() {
        // `<proceed/>` goes in clear, before the filter: nothing of the stream reports stored data yet.
        flushHeld()
        guard let bev = bufferEvent, let base = bufferevent_get_base(bev), let ssl = server.tls.makeSSL() else {
            return terminate(.internalServerError)
        }
        guard let filtered = bufferevent_openssl_filter_new(base, bev, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                            Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            return terminate(.internalServerError)
        }
        // The filter now owns (and frees) the socket bufferevent and the SSL.
        bufferEvent = filtered
        // Clients often just close the socket after </stream:stream>: that is an EOF, not an error.
        bufferevent_openssl_set_allow_dirty_shutdown(filtered, 1)
        install(on: filtered)
    }

    // MARK: closing and timers

    /// Whether TLS's close_notify has gone out (`sendTLSCloseNotify`).
    private var closeNotifySent = false

    private func beginClose(grace: Double) {
        guard !isClosing else { return }
        isClosing = true
        server.unbind(self)
        if let bev = bufferEvent { bufferevent_disable(bev, Int16(EV_READ)) }
        sendTLSCloseNotify()
        closeDeadline = monotonicNow() + grace
        // Poll finely for the last bytes to drain: a client waiting for our
        // </stream:stream> should not wait a timer's period for it.
        armTimer(after: 0.001)
    }

    /// TLS's close_notify right after the last bytes (RFC 8446 §6.1, RFC 6120 §4.4): a client
    /// that waits for it after our `</stream:stream>`, as libstrophe does, is then not kept
    /// waiting until the socket closes. Only once all the plaintext is through TLS.
    /// Held output (the turn not yet committed) goes first: `flushHeld` calls this again.
    private func sendTLSCloseNotify() {
        guard !closeNotifySent, heldBytes.isEmpty, let bev = bufferEvent, bufferevent_get_underlying(bev) != nil,
              let ssl = bufferevent_openssl_get_ssl(bev) else { return }
        _ = bufferevent_flush(bev, Int16(EV_WRITE), BEV_FLUSH)
        guard evbuffer_get_length(bufferevent_get_output(bev)) == 0 else { return }
        closeNotifySent = true
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Bytes not yet handed to the kernel (the TLS filter's and the socket's).
    private var pendingOutput: Int {
        if let webSocket { return webSocket.pendingMessages + heldElements.count }
        guard let bev = bufferEvent else { return 0 }
        var total = heldBytes.count + evbuffer_get_length(bufferevent_get_output(bev))
        if let underlying = bufferevent_get_underlying(bev) { total += evbuffer_get_length(bufferevent_get_output(underlying)) }
        return total
    }

    private func timerFired() {
        let now = monotonicNow()
        if isHibernating && !isClosing {
            guard now >= hibernationDeadline else { return armTimer(after: hibernationDeadline - now) }
            closeReason = "not resumed within \(server.limits.resumptionTimeout) s"
            return finish()
        }
        if isClosing {
            if pendingOutput == 0 || now >= closeDeadline { finish() } else { armTimer(after: 0.001) }
            return
        }
        let limits = server.limits
        var deadline = lastActivity + limits.idleTimeout
        if session.phase != .established { deadline = min(deadline, openedAt + limits.preAuthTimeout) }
        if now >= deadline {
            if transport == .directTLS && !handshakeDone {
                // Nothing can be said before the handshake: just hang up.
                closeReason = "TLS handshake not finished within \(Self.format(limits.preAuthTimeout)) s"
                return finish()
            }
            terminate(.connectionTimeout)
        } else {
            armTimer(after: deadline - now)
        }
    }

    private func armTimer(after seconds: Double) {
        guard let timer else { return }
        let clamped = max(0.001, seconds)
        var tv = timeval(tv_sec: Int(clamped), tv_usec: Int((clamped - clamped.rounded(.down)) * 1_000_000))
        event_add(timer, &tv)
    }

    /// Frees the socket now and leaves the server's table.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        isClosing = true
        server.unbind(self)
        if let bev = bufferEvent { bufferevent_free(bev) }
        bufferEvent = nil
        if let timer { event_free(timer) }
        timer = nil
        webSocket?.close(reason: closeReason ?? "stream closed")
        server.log.log(closeReason == nil ? .debug : .info, "xmpp #\(number): closed\(closeReason.map { ": \($0)" } ?? "")")
        server.remove(self)
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    private static func newStreamId() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16) + String(UInt32.random(in: .min ... .max), radix: 16)
    }
}

@available(*, unavailable) extension XMPPClientConnection: Sendable {}

func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
