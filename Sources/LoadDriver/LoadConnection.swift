internal import CEvent
#if canImport(Glibc)
import Glibc
#endif

/// What a load connection tells the run that owns it (on the loop thread).
protocol LoadConnectionDelegate: AnyObject {
    func connectionReady(_ connection: LoadConnection)
    /// A message stanza with a load message in its body arrived.
    func connection(_ connection: LoadConnection, received message: LoadMessage, at now: UInt64)
    /// The server acknowledged (XEP-0198 `<a h/>`) the first `h` stanzas sent since `<enable/>`.
    func connection(_ connection: LoadConnection, acknowledged h: UInt32)
    func connection(_ connection: LoadConnection, failed reason: String)
}

/// One simulated user's XMPP stream: a TCP bufferevent, OpenSSL-filtered after STARTTLS,
/// the `LoginSteps` that take it to a bound stream, then stanzas both ways with stream
/// management's counts and acks. Every bufferevent call of the driver lives here.
final class LoadConnection {
    let index: Int
    let userId: Int
    private unowned let delegate: any LoadConnectionDelegate
    private let base: OpaquePointer
    private let tls: TLSClientContext
    private var bufferEvent: OpaquePointer?
    private var scanner = StanzaScanner()
    private var steps: LoginSteps
    private var counting = false
    /// Stanzas received since `<enabled/>` (the `h` we answer `<r/>` with).
    private var inbound: UInt32 = 0
    /// Stanzas written since `<enable/>`.
    private(set) var outbound: UInt32 = 0
    private(set) var isReady = false
    private(set) var isClosed = false
    /// When set, every load message received is answered with a chat marker `received`
    /// (docs/protocol.md §7) to this bare JID in that dialog, as `chatctl listen` does; the
    /// markers of one read go out in one write.
    var markers: (to: String, dialogId: String)?
    private var markerIds = ObjectIdSource()
    private var pendingMarkers: [UInt8] = []
    private var pendingMarkerCount = 0

    init(index: Int, userId: Int, steps: LoginSteps, base: OpaquePointer, tls: TLSClientContext, delegate: any LoadConnectionDelegate) {
        self.index = index
        self.userId = userId
        self.steps = steps
        self.base = base
        self.tls = tls
        self.delegate = delegate
    }

    deinit {
        if let bufferEvent { bufferevent_free(bufferEvent) }
    }

    /// Starts connecting to `host:port`; the rest happens in callbacks.
    func connect(host: String, port: Int) {
        guard let bev = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            return failed("bufferevent_socket_new failed")
        }
        bufferEvent = bev
        install(on: bev)
        if bufferevent_socket_connect_hostname(bev, nil, AF_INET, host, Int32(port)) != 0 {
            failed("cannot connect to \(host):\(port)")
        }
    }

    private func install(on bev: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        bufferevent_setcb(bev, { _, ctx in
            Unmanaged<LoadConnection>.fromOpaque(ctx!).takeUnretainedValue().readable()
        }, nil, { _, events, ctx in
            Unmanaged<LoadConnection>.fromOpaque(ctx!).takeUnretainedValue().event(events)
        }, me)
        bufferevent_enable(bev, Int16(EV_READ | EV_WRITE))
    }

    /// Bytes written but not yet handed to the kernel.
    var pendingOutput: Int {
        guard let bev = bufferEvent else { return 0 }
        var total = evbuffer_get_length(bufferevent_get_output(bev))
        if let underlying = bufferevent_get_underlying(bev) { total += evbuffer_get_length(bufferevent_get_output(underlying)) }
        return total
    }

    /// Writes bytes that hold `stanzas` stanzas (counted for stream management).
    func write(_ bytes: [UInt8], stanzas: Int) {
        guard let bev = bufferEvent, !isClosed else { return }
        outbound &+= UInt32(stanzas)
        _ = bytes.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) }
    }

    func write(_ text: String, stanzas: Int = 0) { write(Array(text.utf8), stanzas: stanzas) }

    /// Asks the server to acknowledge what it has handled (XEP-0198 `<r/>`).
    func requestAck() { write("<r xmlns='urn:xmpp:sm:3'/>") }

    /// Ends the stream politely.
    func close() {
        guard !isClosed else { return }
        write("</stream:stream>")
        isClosed = true
    }

    // MARK: input

    private func readable() {
        guard let bev = bufferEvent else { return }
        let input = bufferevent_get_input(bev)
        let length = evbuffer_get_length(input)
        guard length > 0, let bytes = evbuffer_pullup(input, -1) else { return }
        scanner.append(UnsafeRawBufferPointer(start: bytes, count: length))
        evbuffer_drain(input, length)
        while !isClosed, let item = scanner.next() {
            switch item {
            case .streamOpened:
                perform(steps.handle(.streamOpened))
            case .streamClosed:
                perform(steps.handle(.closed))
                if isReady { failed("the server closed the stream") }
            case .malformed:
                failed("unreadable bytes from the server")
            case .element(let element):
                received(element)
            }
        }
        if pendingMarkerCount > 0 {
            write(pendingMarkers, stanzas: pendingMarkerCount)
            pendingMarkers.removeAll(keepingCapacity: true)
            pendingMarkerCount = 0
        }
    }

    private func answerWithMarker(_ element: ScannedElement) {
        guard let markers, let id = element.attribute("id") else { return }
        pendingMarkers.append(contentsOf: "<message type='chat' to='\(markers.to)' id='".utf8)
        markerIds.next(seconds: Int(time(nil))).appendHex(to: &pendingMarkers)
        pendingMarkers.append(contentsOf: "'><received xmlns='urn:xmpp:chat-markers:0' id='\(id)'/><extraParams xmlns='jabber:client'><dialog_id>\(markers.dialogId)</dialog_id></extraParams></message>".utf8)
        pendingMarkerCount += 1
    }

    private func received(_ element: ScannedElement) {
        let isStanza = element.isNamed("message") || element.isNamed("presence") || element.isNamed("iq")
        if counting && isStanza { inbound &+= 1 }
        guard isReady else { return perform(steps.handle(.element(element))) }
        if isStanza {
            guard element.isNamed("message") else { return }
            guard element.attribute("type") != "error" else {
                return failed("a message bounced: \(String(decoding: element.bytes, as: UTF8.self))")
            }
            if let body = element.childText("body"), let message = LoadMessage(body: body) {
                if markers != nil { answerWithMarker(element) }
                delegate.connection(self, received: message, at: MonotonicClock.nanoseconds)
            }
        } else if element.isNamed("r") {
            write("<a xmlns='urn:xmpp:sm:3' h='\(inbound)'/>")
        } else if element.isNamed("a") {
            if let h = element.attribute("h").flatMap({ UInt32($0) }) { delegate.connection(self, acknowledged: h) }
        } else if element.isNamed("stream:error") {
            failed("stream error: \(String(decoding: element.bytes, as: UTF8.self))")
        }
    }

    private func event(_ events: Int16) {
        if events & Int16(BEV_EVENT_CONNECTED) != 0 {
            if bufferevent_get_underlying(bufferEvent) == nil {
                if let fd = Optional(bufferevent_getfd(bufferEvent)), fd >= 0 {
                    var one: Int32 = 1
                    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                }
                perform(steps.handle(.connected))
            } else {
                perform(steps.handle(.tlsEstablished))
            }
            return
        }
        if events & Int16(BEV_EVENT_ERROR | BEV_EVENT_EOF | BEV_EVENT_TIMEOUT) != 0 {
            var reason = events & Int16(BEV_EVENT_EOF) != 0 ? "the server closed the connection" : "connection error"
            if let bev = bufferEvent {
                let code = bufferevent_get_openssl_error(bev)
                if code != 0, let text = ERR_reason_error_string(code) { reason = "TLS: " + String(cString: text) }
                else if events & Int16(BEV_EVENT_ERROR) != 0 { reason += ": " + String(cString: strerror(errno)) }
            }
            failed(reason)
        }
    }

    private func perform(_ actions: [LoginSteps.Action]) {
        for action in actions {
            switch action {
            case .write(let text):
                let isStanza = text.hasPrefix("<presence") || text.hasPrefix("<iq") || text.hasPrefix("<message")
                write(text, stanzas: counting && isStanza ? 1 : 0)
            case .startTLS:
                startTLS()
            case .restartStream:
                scanner.reset()
            case .countStanzas:
                counting = true
            case .ready:
                isReady = true
                delegate.connectionReady(self)
            case .fail(let why):
                failed(why)
            }
        }
    }

    private func startTLS() {
        scanner.reset()
        guard let bev = bufferEvent, let ssl = tls.makeSSL() else { return failed("cannot set up TLS") }
        guard let filtered = bufferevent_openssl_filter_new(base, bev, ssl, BUFFEREVENT_SSL_CONNECTING,
                                                            Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else {
            SSL_free(ssl)
            return failed("cannot set up TLS")
        }
        bufferEvent = filtered
        install(on: filtered)
    }

    private func failed(_ reason: String) {
        guard !isClosed else { return }
        isClosed = true
        if let bev = bufferEvent { bufferevent_disable(bev, Int16(EV_READ | EV_WRITE)) }
        delegate.connection(self, failed: reason)
    }
}

@available(*, unavailable) extension LoadConnection: Sendable {}
