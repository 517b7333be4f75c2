#if canImport(Glibc)
import Glibc
#endif
import SandboxNetwork
import XMPPTransport

/// What a load connection tells the run that owns it (on the loop thread).
protocol LoadConnectionDelegate: AnyObject {
    func connectionReady(_ connection: LoadConnection)
    /// A message stanza with a load message in its body arrived.
    func connection(_ connection: LoadConnection, received message: LoadMessage, at now: UInt64)
    /// The server acknowledged (XEP-0198 `<a h/>`) the first `h` stanzas sent since `<enable/>`.
    func connection(_ connection: LoadConnection, acknowledged h: UInt32)
    func connection(_ connection: LoadConnection, failed reason: String)
}

/// One simulated user's XMPP stream: a TCP `SocketConnection` (the sandbox's own, TLS after
/// STARTTLS), the `LoginSteps` that take it to a bound stream, then stanzas both ways with
/// stream management's counts and acks.
final class LoadConnection {
    let index: Int
    let userId: Int
    private unowned let delegate: any LoadConnectionDelegate
    private let loop: EventLoop
    private let tls: TLSClientContext
    private var socket: SocketConnection?
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
    private var markerIds = ObjectIDGenerator()
    private var pendingMarkers: [UInt8] = []
    private var pendingMarkerCount = 0

    init(index: Int, userId: Int, steps: LoginSteps, loop: EventLoop, tls: TLSClientContext, delegate: any LoadConnectionDelegate) {
        self.index = index
        self.userId = userId
        self.steps = steps
        self.loop = loop
        self.tls = tls
        self.delegate = delegate
    }

    /// Starts connecting to `host:port`; the rest happens in callbacks.
    func connect(host: String, port: Int) {
        do {
            let socket = try SocketConnection(loop: loop, connectingTo: host, port: port)
            socket.onReadable = { [unowned self] in self.readable() }
            socket.onEvent = { [unowned self] in self.event($0) }
            self.socket = socket
        } catch {
            failed(error.description)
        }
    }

    /// Bytes written but not yet handed to the kernel.
    var pendingOutput: Int { socket?.pendingOutput ?? 0 }

    /// Writes bytes that hold `stanzas` stanzas (counted for stream management).
    func write(_ bytes: [UInt8], stanzas: Int) {
        guard let socket, !isClosed else { return }
        outbound &+= UInt32(stanzas)
        socket.write(bytes)
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
        var arrived = false
        socket?.withInput { bytes in
            arrived = true
            scanner.append(bytes)
        }
        guard arrived else { return }
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
        pendingMarkers.append(contentsOf: markerIds.next(unixTime: UInt32(truncatingIfNeeded: time(nil))).rawValue.utf8)
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

    private func event(_ event: SocketConnection.Event) {
        switch event {
        case .connected:
            guard let socket else { return }
            if socket.isTLS {
                perform(steps.handle(.tlsEstablished))
            } else {
                socket.sendWithoutDelay()
                perform(steps.handle(.connected))
            }
        case .ended(let endOfFile, let failed, let tlsError, let systemError):
            var reason = endOfFile ? "the server closed the connection" : "connection error"
            if let tlsError { reason = "TLS: " + tlsError } else if failed { reason += ": " + systemError }
            self.failed(reason)
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
        guard let socket, socket.startTLS(as: tls) else { return failed("cannot set up TLS") }
    }

    private func failed(_ reason: String) {
        guard !isClosed else { return }
        isClosed = true
        socket?.stop()
        delegate.connection(self, failed: reason)
    }
}

@available(*, unavailable) extension LoadConnection: Sendable {}
