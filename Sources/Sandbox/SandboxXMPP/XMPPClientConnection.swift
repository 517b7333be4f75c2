import SandboxClock
import SandboxCrypto
import SandboxNetwork
import SandboxWebSocket
import SandboxXML

/// The server side of one client's connection: a TCP `SocketConnection` (TLS after STARTTLS,
/// or from the first byte on the direct-TLS port) or a WebSocket (`WebSocketChannel`), an
/// expat stream parser, the pure `XMPPSession` it drives and the stream's `StreamManagement`.
/// Lives on the event loop thread; owned by `XMPPServer`, which drops it once closed. What it
/// does to the server's tables (binding, routing, resumption, closing) it raises as events.
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
    private let shared: ConnectionEnvironment
    private let parser: XMLStreamParser
    /// TCP only; nil once closed (or while the session hibernates).
    private var socket: SocketConnection?
    /// The WebSocket's end on the loop, for `.webSocket`.
    let webSocket: WebSocketChannel?
    private var timer: LoopEvent?
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
    /// XEP-0198: what was sent and not acknowledged, and whether the session waits to be resumed.
    private var streamManagement = StreamManagement()
    /// What this turn of the loop wrote, sent once the turn's writes are committed (`TurnCommit`):
    /// bytes for TCP, whole elements for a WebSocket (one per message).
    private var heldBytes: [UInt8] = []
    /// What the last read took from the bufferevent (kept, so a read allocates nothing).
    private var inputBuffer: [UInt8] = []
    private var heldElements: [String] = []
    private var isHolding = false
    /// The connection is gone but the session waits to be resumed (`StreamManagement`).
    var isHibernating: Bool { streamManagement.isHibernating }

    /// What every transport shares: the session, the parser, the timers.
    private init(shared: ConnectionEnvironment, loop: EventLoop, transport: Transport, webSocket: WebSocketChannel?, number: Int, peer: String) {
        self.shared = shared
        self.number = number
        self.peer = peer
        self.transport = transport
        self.webSocket = webSocket
        // STARTTLS only where the stream is not secured (or securable) otherwise.
        session = XMPPSession(domain: shared.chat.name, applicationId: shared.chat.applicationId, tlsAvailable: transport == .tcp,
                              maxFailedAuthentications: shared.limits.maxFailedAuthentications,
                              resumptionTimeout: shared.limits.resumptionTimeout,
                              resumptionCandidate: Hex.string(SecureRandom.bytes(16)))
        parser = XMLStreamParser(maxElementBytes: shared.limits.maxElementBytes, maxDepth: shared.limits.maxDepth)
        openedAt = SandboxTime.monotonic()
        lastActivity = openedAt
        timer = LoopEvent(loop: loop, .timer) { [unowned self] in self.timerFired() }
        parser.handler = { [unowned self] event in self.parsed(event) }
        armTimer(after: shared.limits.preAuthTimeout)
    }

    /// A WebSocket client; its messages arrive through `receive(webSocketMessage:)`.
    convenience init(shared: ConnectionEnvironment, loop: EventLoop, webSocket: WebSocketChannel, number: Int, peer: String) {
        self.init(shared: shared, loop: loop, transport: .webSocket, webSocket: webSocket, number: number, peer: peer)
    }

    /// A TCP client (`transport` `.tcp` or `.directTLS`) on an accepted socket.
    convenience init(shared: ConnectionEnvironment, loop: EventLoop, socket: Int32, transport: Transport, number: Int, peer: String) throws {
        precondition(transport != .webSocket, "a WebSocket has no socket of ours")
        self.init(shared: shared, loop: loop, transport: transport, webSocket: nil, number: number, peer: peer)
        let connection = try SocketConnection(loop: loop, acceptedSocket: socket)
        connection.sendWithoutDelay()
        connection.onReadable = { [unowned self] in self.readable() }
        connection.onEvent = { [unowned self] in self.socketEvent($0) }
        self.socket = connection
        // Direct TLS: the same filter STARTTLS puts on, from the first byte.
        if transport == .directTLS { startTLS() }
    }

    // MARK: input

    private func readable() {
        guard let socket else { return }
        // Into a buffer kept between reads.
        let length = socket.read(into: &inputBuffer)
        guard length > 0 else { return }
        // A thousand streams each keeping their largest read would add up.
        defer { if inputBuffer.count > 16 * 1024 { inputBuffer = [] } }
        guard !isClosing else { return }
        lastActivity = SandboxTime.monotonic()
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
        lastActivity = SandboxTime.monotonic()
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
            case "close":
                // RFC 7395 §3.6: our <close/> answers the client's, spelt as ejabberd and Prosody spell it.
                perform(session.handle(.streamClosed).map { $0 == .send("</stream:stream>") ? .send(WebSocketFraming.closeReply) : $0 })
            default: terminate(.unsupportedStanzaType)
            }
        case .element(let element):
            perform(session.handle(.element(element)))
        case .streamClosed:
            if transport != .webSocket { perform(session.handle(.streamClosed)) }
        }
        return pendingRestart == nil && !isClosing
    }

    private func socketEvent(_ event: SocketConnection.Event) {
        switch event {
        case .connected:
            shared.log.log(.debug, "xmpp #\(number): TLS established")
            if transport == .directTLS {
                handshakeDone = true  // the session was never told about TLS: it offers no STARTTLS
            } else {
                perform(session.handle(.tlsEstablished))
            }
        case .ended(_, let failed, let tlsError, _):
            var reason = "connection lost"
            if failed {
                if let tls = tlsError, closeReason == nil {
                    closeReason = "TLS error: \(tls)"
                    reason = closeReason!
                } else {
                    shared.log.log(.debug, "xmpp #\(number): connection lost (socket error)")
                }
            }
            if canHibernate { hibernate(reason: reason) } else { finish() }
        }
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
                let outcome = shared.authenticator.checkChatCredentials(userId: userId, secret: secret, from: peerAddress)
                switch outcome {
                case .accepted: shared.log.log(.info, "xmpp #\(number): user \(userId) authenticated")
                case .refused: shared.log.log(.warning, "xmpp #\(number): user \(userId) failed to authenticate")
                case .throttled: shared.log.log(.warning, "xmpp #\(number): user \(userId) refused: too many wrong passwords lately (for the user or from \(peerAddress))")
                }
                perform(session.handle(outcome == .throttled ? .authenticationThrottled(userId: userId)
                                                             : .authenticationChecked(userId: userId, accepted: outcome == .accepted)))
                if session.isAuthenticated { shared.events.authenticated(self) }
            case .bindResource(let requested, let iqId):
                let resource = shared.events.bind(self, requested)
                perform(session.handle(.resourceBound(resource, iqId: iqId)))
                shared.log.log(.info, "xmpp #\(number): bound \(session.fullJID ?? "?")")
            case .route(let stanza, let kind):
                shared.events.stanza(stanza, kind, self)
            case .resumptionEnabled(let id):
                streamManagement.enableResumption(requestEvery: shared.limits.ackRequestEvery,
                                                  capacity: shared.limits.maxUnacknowledgedStanzas)
                shared.events.resumable(self, id)
            case .acknowledged(let h):
                if case .tooMany(let sent)? = streamManagement.acknowledge(h) {
                    shared.log.log(.warning, "xmpp #\(number): the client acknowledged \(h) stanzas of \(sent)")
                }
            case .resume(let previd, let h):
                resume(previd, h: h)
            case .close:
                beginClose(grace: shared.limits.closeGrace)
            }
        }
    }

    /// Ends the stream with `error` (used for timeouts, shutdown, a replacing session).
    func terminate(_ error: XMPPStreamError, grace: Double? = nil) {
        guard !isClosing else { return }
        shared.log.log(.debug, "xmpp #\(number): stream error \(error.rawValue)")
        if closeReason == nil { closeReason = "stream error \(error.rawValue)" }
        perform(session.handle(.fatal(error)))
        if let grace { closeDeadline = min(closeDeadline, SandboxTime.monotonic() + grace) }
    }

    /// Closes a stream that never authenticated to make room for a newer one from its address
    /// (`XMPPServer.Limits.maxUnauthenticatedPerAddress`).
    func evict() {
        guard !isClosing else { return }
        closeReason = "the oldest of \(shared.limits.maxUnauthenticatedPerAddress) connections from its address not yet authenticated, closed for a new one"
        // Before the TLS handshake nothing can be said: just hang up.
        if transport == .directTLS && !handshakeDone { return finish() }
        terminate(.policyViolation, grace: 0.5)
    }

    /// Pushes queued output to the socket now (through OpenSSL when filtered),
    /// for when the loop may not run again (shutdown).
    func flushNow() {
        flushHeld()
        // A WebSocket's thread flushes by itself: ask it to close after the goodbye.
        if let webSocket { return webSocket.close(reason: closeReason ?? "closing") }
        socket?.flushNow()
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// One element, as bytes (what the router serializes: no String made of it, nor checked
    /// again as UTF-8); kept as it is, not copied, when it must wait for an ack.
    func send(_ bytes: [UInt8]) {
        guard !isFinished else { return }
        switch streamManagement.sending(bytes) {
        case .write:
            write(bytes)
        case .writeAndRequestAck:
            write(bytes)
            write(Self.ackRequest)
        case .withheld:
            return
        case .overflowed:
            // A live stream still gets it, only no longer kept; a waiting session ends.
            stopKeepingStanzas()
            if !isHibernating && !isFinished { write(bytes) }
        }
    }

    private static let ackRequest = Array("<r xmlns='\(XMPPNamespace.streamManagement)'/>".utf8)

    /// Onto the wire (or the WebSocket) as it is, at the end of this turn of the loop.
    private func write(_ bytes: [UInt8]) {
        if webSocket != nil {
            heldElements.append(String(decoding: bytes, as: UTF8.self))
        } else {
            guard socket != nil else { return }
            heldBytes.append(contentsOf: bytes)
        }
        if !isHolding {
            isHolding = true
            shared.turn.hold(self)
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
        if let socket, !heldBytes.isEmpty { socket.write(heldBytes) }
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
        streamManagement.isResumable && session.phase == .established && !isClosing && !isFinished && !isHibernating
    }

    private func hibernate(reason: String) {
        socket = nil
        let timeout = shared.limits.resumptionTimeout
        streamManagement.hibernate(until: SandboxTime.monotonic() + Double(timeout))
        shared.log.log(.info, "xmpp #\(number): \(reason); \(session.fullJID ?? "?") kept \(timeout) s for resumption")
        armTimer(after: Double(timeout))
    }

    /// The client does not acknowledge (or has been gone too long): no more resumption.
    private func stopKeepingStanzas() {
        shared.log.log(.warning, "xmpp #\(number): more than \(shared.limits.maxUnacknowledgedStanzas) stanzas unacknowledged; the session can no longer be resumed")
        streamManagement.stopKeeping()
        shared.events.unresumable(self)
        if isHibernating {
            closeReason = "too many stanzas waiting for resumption"
            finish()
        }
    }

    /// `<resume previd h/>` on this authenticated stream: take over that session of the same user,
    /// hibernating or (a half-open connection) still live, and send again what it had not acknowledged.
    private func resume(_ previd: String, h: UInt32) {
        guard let userId = session.userId, let previous = shared.events.findResumable(previd, userId), previous !== self,
              let resumption = previous.session.resumption, var queue = previous.streamManagement.unacknowledged else {
            shared.log.log(.info, "xmpp #\(number): cannot resume \(previd)")
            return perform(session.handle(.resumeChecked(nil, previd: previd)))
        }
        if case .tooMany(let sent) = queue.acknowledge(h) {
            shared.log.log(.warning, "xmpp #\(number): resuming, the client acknowledged \(h) stanzas of \(sent)")
        }
        perform(session.handle(.resumeChecked(resumption, previd: previd)))
        streamManagement.takeOver(queue)
        // Sent again under the numbers they had: the client counts them from its `h` on.
        for stanza in queue.pending { write(stanza) }
        shared.events.resumed(previous, self)
        previous.closeReason = "resumed on #\(number)"
        previous.finish()
        shared.log.log(.info, "xmpp #\(number): resumed \(session.fullJID ?? "?") (#\(previous.number)), \(queue.pending.count) stanzas sent again")
    }

    private func startTLS() {
        // `<proceed/>` goes in clear, before the filter: nothing of the stream reports stored data yet.
        flushHeld()
        guard let socket, socket.startTLS(as: shared.tls) else { return terminate(.internalServerError) }
    }

    // MARK: closing and timers

    /// Whether TLS's close_notify has gone out (`sendTLSCloseNotify`).
    private var closeNotifySent = false

    private func beginClose(grace: Double) {
        guard !isClosing else { return }
        isClosing = true
        shared.events.unbound(self)
        socket?.stopReading()
        sendTLSCloseNotify()
        closeDeadline = SandboxTime.monotonic() + grace
        // Poll finely for the last bytes to drain: a client waiting for our
        // </stream:stream> should not wait a timer's period for it.
        armTimer(after: 0.001)
    }

    /// TLS's close_notify right after the last bytes (RFC 8446 §6.1, RFC 6120 §4.4): a client
    /// that waits for it after our `</stream:stream>`, as libstrophe does, is then not kept
    /// waiting until the socket closes. Only once all the plaintext is through TLS.
    /// Held output (the turn not yet committed) goes first: `flushHeld` calls this again.
    private func sendTLSCloseNotify() {
        guard !closeNotifySent, heldBytes.isEmpty, let socket, socket.sendCloseNotify() else { return }
        closeNotifySent = true
    }

    /// Bytes not yet handed to the kernel (held for the turn, the TLS filter's and the socket's).
    private var pendingOutput: Int {
        if let webSocket { return webSocket.pendingMessages + heldElements.count }
        guard let socket else { return 0 }
        return heldBytes.count + socket.pendingOutput
    }

    private func timerFired() {
        let now = SandboxTime.monotonic()
        if let deadline = streamManagement.hibernationDeadline, !isClosing {
            guard now >= deadline else { return armTimer(after: deadline - now) }
            closeReason = "not resumed within \(shared.limits.resumptionTimeout) s"
            return finish()
        }
        if isClosing {
            if pendingOutput == 0 || now >= closeDeadline { finish() } else { armTimer(after: 0.001) }
            return
        }
        let limits = shared.limits
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

    private func armTimer(after seconds: Double) { timer?.schedule(after: seconds) }

    /// Frees the socket now and leaves the server's table.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        isClosing = true
        shared.events.unbound(self)
        socket = nil
        timer?.cancel()
        timer = nil
        webSocket?.close(reason: closeReason ?? "stream closed")
        shared.log.log(closeReason == nil ? .debug : .info, "xmpp #\(number): closed\(closeReason.map { ": \($0)" } ?? "")")
        shared.events.closed(self)
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    private static func newStreamId() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16) + String(UInt32.random(in: .min ... .max), radix: 16)
    }
}

@available(*, unavailable) extension XMPPClientConnection: Sendable {}
