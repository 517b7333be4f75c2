// libevent's HTTP server (evhttp): every evhttp call lives here. It reads each request into an
// `HTTPRequest` and writes the service's `HTTPAnswer`; what the request means is the service's.
internal import CEvent
#if canImport(Glibc)
import Glibc
#endif
import SandboxClock
import SandboxHTTP
import SandboxLogging

/// Owns one `evhttp*` on the loop; hands every request to `service` on the loop thread.
package final class HTTPServer {
    private let loop: EventLoop
    private var http: OpaquePointer?
    /// evhttp keeps the pointer it is given as its default Content-Type, without a copy:
    /// ours lives until evhttp is freed (a Swift temporary would dangle).
    private let defaultContentType: UnsafeMutablePointer<CChar>
    private let service: (HTTPRequest) -> HTTPAnswer
    /// The service's name in log lines ("rest: …").
    private let name: String
    private let maximumBodySize: Int
    private let log: SandboxLog
    /// The port actually bound.
    package let boundPort: Int
    /// Seconds a connection has to send a whole request, from connecting or from our last answer.
    /// libevent's own timeout is per read, so a client sending a byte a second (slowloris)
    /// would never meet it.
    let requestTimeout: Double
    /// Each connection's bufferevent (we hold a reference, so the pointer stays valid) and
    /// when its next request must be complete.
    private var requestDeadlines: [OpaquePointer: Double] = [:]
    /// A timer that drops connections past their deadline and lets go of closed ones.
    private var sweep: LoopEvent?
    /// With TLS (`--https`): each connection's OpenSSL stream, from `tls`'s context.
    private let tls: TLSIdentity?
    /// Added to an answer libevent writes on its own (a request too large or malformed).
    private let refusalHeaders: [(String, String)]
    /// The hook on each connection's output that sees libevent's own answers begin.
    private var refusalWatches: [OpaquePointer: OpaquePointer] = [:]
    /// True while our own answer is written: the hook leaves it alone.
    private var answering = false
    /// Connections waiting for a whole request, oldest first per address: past the cap the
    /// oldest is dropped, not the newcomer (a half-open flood cannot lock out the next client).
    private var waiting: IdleConnections<OpaquePointer>
    /// Each connection's peer address, once known.
    private var peerAddresses: [OpaquePointer: String] = [:]
    /// Connections begun whose socket evhttp has not handed over yet (it does right after).
    private var unplaced: [OpaquePointer] = []
    /// Counts the connections in `unplaced` once this turn's callbacks are done.
    private var placement: LoopEvent?

    /// `name`: the service, as its errors and log lines call it ("REST"); `timeout`: seconds a
    /// connection may stay idle or half-sent before libevent drops it; `requestTimeout`: seconds
    /// for each whole request; bodies over `maximumBodySize` and headers over
    /// `maximumHeadersSize` get 413 from libevent itself; `defaultContentType`: of an answer
    /// that names none; `tls`: serve HTTPS with this identity; `refusalHeaders`: added to the
    /// answers libevent writes by itself (its 400s and 413s), which no service sees;
    /// `maximumWaiting`: connections per address (and all together) waiting for a request.
    package init(loop: EventLoop, name: String, host: String, port: Int, timeout: Int, requestTimeout: Double = 10,
                 maximumBodySize: Int, maximumHeadersSize: Int, defaultContentType: String, tls: TLSIdentity? = nil,
                 refusalHeaders: [(String, String)] = [], maximumWaiting: (perAddress: Int, overall: Int) = (32, 512),
                 log: SandboxLog, service: @escaping (HTTPRequest) -> HTTPAnswer) throws(SandboxFailure) {
        guard let http = evhttp_new(loop.base) else { throw SandboxFailure("evhttp_new failed") }
        self.loop = loop
        waiting = IdleConnections(perAddress: max(1, maximumWaiting.perAddress), overall: max(1, maximumWaiting.overall))
        self.tls = tls
        self.refusalHeaders = refusalHeaders
        self.name = name
        self.service = service
        self.maximumBodySize = maximumBodySize
        self.log = log
        self.requestTimeout = requestTimeout
        evhttp_set_max_body_size(http, maximumBodySize)
        evhttp_set_max_headers_size(http, maximumHeadersSize)
        evhttp_set_timeout(http, Int32(max(1, timeout)))
        // libevent answers methods it is told to refuse with 501; letting them through gets them
        // the service's own answer (REST's 405 in QuickBlox's shape); OPTIONS is a browser's
        // preflight (docs/protocol.md §10).
        let methods = [EVHTTP_REQ_GET, EVHTTP_REQ_POST, EVHTTP_REQ_PUT, EVHTTP_REQ_DELETE, EVHTTP_REQ_HEAD,
                       EVHTTP_REQ_OPTIONS, EVHTTP_REQ_TRACE, EVHTTP_REQ_CONNECT, EVHTTP_REQ_PATCH]
            .reduce(UInt32(0)) { $0 | UInt32($1.rawValue) }
        evhttp_set_allowed_methods(http, UInt16(methods))
        self.defaultContentType = strdup(defaultContentType)!
        evhttp_set_default_content_type(http, self.defaultContentType)
        guard port >= 0, port <= 65535, let bound = evhttp_bind_socket_with_handle(http, host, UInt16(port)) else {
            let code = errno
            evhttp_free(http)
            free(self.defaultContentType)
            throw .cannotListen(for: name, host: host, port: port, code: code)
        }
        boundPort = ListeningAddress.boundPort(of: evhttp_bound_socket_get_fd(bound)) ?? port
        self.http = http
        evhttp_set_gencb(http, { request, arg in
            guard let request, let arg else { return }
            Unmanaged<HTTPServer>.fromOpaque(arg).takeUnretainedValue().serve(request)
        }, Unmanaged.passUnretained(self).toOpaque())
        // evhttp asks us for each accepted connection's bufferevent: the one place to see it begin.
        evhttp_set_bevcb(http, { base, arg in
            guard let base, let arg else { return nil }
            return Unmanaged<HTTPServer>.fromOpaque(arg).takeUnretainedValue().connectionBegins(base)
        }, Unmanaged.passUnretained(self).toOpaque())
        sweep = LoopEvent(loop: loop, .repeatingTimer) { [unowned self] in self.dropLateConnections() }
        sweep?.schedule(after: 0.25)
        placement = LoopEvent(loop: loop, .afterTurn) { [unowned self] in self.placeNewConnections() }
    }

    deinit {
        close()
        free(defaultContentType)
    }

    /// Stops listening and drops every connection. Idempotent.
    package func close() {
        sweep = nil
        placement = nil
        guard let http else { return }
        evhttp_free(http)
        self.http = nil
        // evhttp has let go of every connection: ours are the last references.
        for bufferEvent in requestDeadlines.keys { release(bufferEvent) }
        requestDeadlines = [:]
        unplaced = []
        peerAddresses = [:]
        waiting = IdleConnections(perAddress: waiting.perAddress, overall: waiting.overall)
    }

    /// A new connection's bufferevent (evhttp gives it the socket), TLS's when serving HTTPS,
    /// with its first deadline and the hook that sees libevent's own answers.
    private func connectionBegins(_ base: OpaquePointer) -> OpaquePointer? {
        let options = Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)
        let made: OpaquePointer?
        if let tls {
            // It frees the SSL itself when it cannot be made (BEV_OPT_CLOSE_ON_FREE).
            guard let ssl = tls.makeSSL() else { return nil }
            made = bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING, options)
            // A browser may hang up without TLS's close_notify: an end, not an error.
            if let made { bufferevent_openssl_set_allow_dirty_shutdown(made, 1) }
        } else {
            made = bufferevent_socket_new(base, -1, options)
        }
        guard let bufferEvent = made else { return nil }
        bufferevent_incref(bufferEvent)
        requestDeadlines[bufferEvent] = SandboxTime.monotonic() + requestTimeout
        unplaced.append(bufferEvent)
        placement?.activate()
        if !refusalHeaders.isEmpty, let output = bufferevent_get_output(bufferEvent),
           let watch = evbuffer_add_cb(output, { buffer, info, arg in
               guard let buffer, let info, let arg, info.pointee.n_added > 0 else { return }
               Unmanaged<HTTPServer>.fromOpaque(arg).takeUnretainedValue().outputGrew(buffer, by: info.pointee.n_added)
           }, Unmanaged.passUnretained(self).toOpaque()) {
            refusalWatches[bufferEvent] = watch
        }
        return bufferEvent
    }

    /// Counts the new connections against the cap on those waiting for a request, by their
    /// peer's address; past it, the oldest waiting ones are dropped.
    private func placeNewConnections() {
        let placing = unplaced
        unplaced = []
        for bufferEvent in placing where requestDeadlines[bufferEvent].map({ $0 < .infinity }) == true {
            let address = PeerAddress.host(ofSocket: bufferevent_getfd(bufferEvent)) ?? "?"
            peerAddresses[bufferEvent] = address
            let evicted = waiting.becameIdle(bufferEvent, address: address)
            if let dropped = waiting.evictionsToLog {
                log.log(.warning, "\(name.lowercased()): \(address) has \(waiting.perAddress) connections waiting for a request; dropping the oldest for a new one (\(dropped) so far)")
            }
            for oldest in evicted { drop(oldest) }
        }
    }

    /// Shuts a connection's socket down; evhttp then closes it as a vanished client.
    private func drop(_ bufferEvent: OpaquePointer) {
        let socket = bufferevent_getfd(bufferEvent)
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        requestDeadlines[bufferEvent] = .infinity
        waiting.remove(bufferEvent)
    }

    /// Our reference to a connection's bufferevent, and its hook, let go.
    private func release(_ bufferEvent: OpaquePointer) {
        waiting.remove(bufferEvent)
        peerAddresses[bufferEvent] = nil
        if let watch = refusalWatches.removeValue(forKey: bufferEvent), let output = bufferevent_get_output(bufferEvent) {
            _ = evbuffer_remove_cb_entry(output, watch)
        }
        bufferevent_decref(bufferEvent)
    }

    /// libevent 2.1 has no hook for the answers it writes itself (a request too large, a bad
    /// request line): each is written at once, its status line first, then its header lines
    /// and an HTML page, and the connection is closed after it. When a status line that is not
    /// ours has just been added, the rest of the sandbox's answer follows it at once (the CORS
    /// header, a JSON body), and the buffer's end is frozen, so that what libevent then adds
    /// (its headers, its page) is refused; it stays frozen until the connection goes.
    private func outputGrew(_ output: OpaquePointer, by added: Int) {
        guard !answering, added <= 256, let bytes = lastBytes(of: output, count: added),
              let status = LibraryRefusal.statusCode(ofStatusLine: bytes) else { return }
        answering = true
        let rest = LibraryRefusal.remainder(status: status, statusLine: bytes, extraHeaders: refusalHeaders)
        rest.withUnsafeBytes { _ = evbuffer_add(output, $0.baseAddress, $0.count) }
        _ = evbuffer_freeze(output, 0)
        answering = false
        log.log(.info, "\(name.lowercased()): libevent refused a request with \(status)")
    }

    /// The last `count` bytes of `output`; nil when they cannot be read.
    private func lastBytes(of output: OpaquePointer, count added: Int) -> [UInt8]? {
        let length = evbuffer_get_length(output)
        guard length >= added else { return nil }
        var position = evbuffer_ptr()
        guard evbuffer_ptr_set(output, &position, length - added, EVBUFFER_PTR_SET) == 0 else { return nil }
        // evbuffer_peek, not evbuffer_copyout_from, which refuses a buffer whose start is frozen
        // (a kept-alive connection's output between answers).
        var pieces = [iovec](repeating: iovec(), count: 4)   // evbuffer_iovec is iovec on Linux
        let count = Int(evbuffer_peek(output, added, &position, &pieces, Int32(pieces.count)))
        var bytes: [UInt8] = []
        for piece in pieces.prefix(min(count, pieces.count)) where bytes.count < added {
            guard let base = piece.iov_base else { continue }
            bytes += UnsafeRawBufferPointer(start: base, count: min(piece.iov_len, added - bytes.count))
        }
        return bytes.count == added ? bytes : nil
    }

    /// Lets go of connections evhttp has closed (it clears their callbacks when it frees them),
    /// and shuts down those past their deadline, which evhttp then closes as a vanished client.
    private func dropLateConnections() {
        let now = SandboxTime.monotonic()
        for (bufferEvent, deadline) in requestDeadlines {
            var eventCallback: bufferevent_event_cb?
            bufferevent_getcb(bufferEvent, nil, nil, &eventCallback, nil)
            if eventCallback == nil {
                requestDeadlines[bufferEvent] = nil
                release(bufferEvent)
            } else if now >= deadline {
                drop(bufferEvent)
                log.log(.info, "\(name.lowercased()): dropped a connection that sent no whole request within \(requestTimeout.rounded() == requestTimeout ? String(Int(requestTimeout)) : String(requestTimeout)) s")
            }
        }
    }

    private func serve(_ request: OpaquePointer) {
        // The next request on this connection gets a fresh deadline.
        if let connection = evhttp_request_get_connection(request), let bufferEvent = evhttp_connection_get_bufferevent(connection),
           requestDeadlines[bufferEvent] != nil {
            requestDeadlines[bufferEvent] = SandboxTime.monotonic() + requestTimeout
            // Answered at once, it waits for its next request as the youngest.
            if let address = peerAddresses[bufferEvent] {
                for oldest in waiting.becameIdle(bufferEvent, address: address) { drop(oldest) }
            }
        }
        send(service(read(request)), to: request)
    }

    /// The evhttp request as values.
    private func read(_ request: OpaquePointer) -> HTTPRequest {
        let method: HTTPRequest.Method = switch evhttp_request_get_command(request) {
        case EVHTTP_REQ_GET: .get
        case EVHTTP_REQ_POST: .post
        case EVHTTP_REQ_PUT: .put
        case EVHTTP_REQ_DELETE: .delete
        case EVHTTP_REQ_OPTIONS: .options
        default: .other
        }
        let uri = evhttp_request_get_evhttp_uri(request)
        let rawPath = uri.flatMap { evhttp_uri_get_path($0) }
        let path: Result<String, HTTPRequest.Problem>
        if let rawPath {
            if let decoded = evhttp_uridecode(rawPath, 0, nil) {
                path = .success(String(cString: decoded))
                free(decoded)
            } else {
                path = .failure(.malformedPath)
            }
        } else {
            path = .failure(.malformedURI)
        }
        var read = HTTPRequest(method: method, headers: Self.inputHeaders(request), rawPath: rawPath.map { String(cString: $0) },
                               path: path, query: uri.flatMap { evhttp_uri_get_query($0) }.map { String(cString: $0) },
                               body: body(of: request))
        read.peerAddress = Self.peerAddress(of: request)
        return read
    }

    /// The client's address as evhttp took it from `getpeername` (no port).
    private static func peerAddress(of request: OpaquePointer) -> String? {
        guard let connection = evhttp_request_get_connection(request) else { return nil }
        var address: UnsafeMutablePointer<CChar>?
        var port: UInt16 = 0
        evhttp_connection_get_peer(connection, &address, &port)
        return address.map { String(cString: $0) }
    }

    /// The request's headers, names lowercased (a repeated one: its last value).
    private static func inputHeaders(_ request: OpaquePointer) -> [String: String] {
        var headers: [String: String] = [:]
        guard let list = evhttp_request_get_input_headers(request) else { return headers }
        var entry = list.pointee.tqh_first
        while let kv = entry {
            if let key = kv.pointee.key, let value = kv.pointee.value {
                headers[String(cString: key).lowercased()] = String(cString: value)
            }
            entry = kv.pointee.next.tqe_next
        }
        return headers
    }

    private func body(of request: OpaquePointer) -> Result<[UInt8], HTTPRequest.Problem> {
        guard let input = evhttp_request_get_input_buffer(request) else { return .success([]) }
        let length = evbuffer_get_length(input)
        if length > maximumBodySize { return .failure(.bodyTooLarge) }
        var body = [UInt8](repeating: 0, count: length)
        let copied = body.withUnsafeMutableBytes { evbuffer_remove(input, $0.baseAddress, length) }
        if copied < 0 { return .failure(.unreadableBody) }
        body.removeLast(length - Int(copied))
        return .success(body)
    }

    private func send(_ answer: HTTPAnswer, to request: OpaquePointer) {
        if let out = evhttp_request_get_output_headers(request) {
            for (name, value) in answer.headers { evhttp_add_header(out, name, value) }
        }
        guard let buffer = evbuffer_new() else {
            evhttp_send_error(request, 500, nil)
            return
        }
        if !answer.body.isEmpty { answer.body.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) } }
        answering = true
        evhttp_send_reply(request, Int32(answer.status), Self.reason(answer.status), buffer)
        answering = false
        evbuffer_free(buffer)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 413: return "Payload Too Large"
        case 422: return "Unprocessable Entity"
        case 429: return "Too Many Requests"
        default: return status >= 500 ? "Internal Server Error" : "Error"
        }
    }
}

@available(*, unavailable) extension HTTPServer: Sendable {}
