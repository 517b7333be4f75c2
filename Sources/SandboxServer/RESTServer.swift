// libevent's HTTP server (evhttp) in front of the route table. Every evhttp call lives here.
internal import CEvent
#if canImport(Glibc)
import Glibc
#endif

struct RESTServerError: Error, CustomStringConvertible {
    var description: String
}

/// Owns one `evhttp*` on the sandbox's event base; handles requests on the loop thread.
final class RESTServer {
    /// Hostile-input limits: bodies over this get 413 from libevent itself.
    static let maximumBodySize = 1 << 20
    static let maximumHeadersSize = 16 << 10

    private var http: OpaquePointer?
    /// evhttp keeps the pointer it is given as its default Content-Type, without a copy:
    /// ours lives until evhttp is freed (a Swift temporary would dangle).
    private let defaultContentType: UnsafeMutablePointer<CChar>
    private let router: RESTRouter
    /// The Access-Control-* headers of every answer, and the answer to a preflight.
    private let cors: CORSPolicy
    private let log: SandboxLog
    /// The port actually bound.
    let boundPort: Int
    /// Seconds a connection has to send a whole request, from connecting or from our last answer.
    /// libevent's own timeout is per read, so a client sending a byte a second (slowloris)
    /// would never meet it.
    let requestTimeout: Double
    /// Each connection's bufferevent (we hold a reference, so the pointer stays valid) and
    /// when its next request must be complete.
    private var requestDeadlines: [OpaquePointer: Double] = [:]
    /// A timer that drops connections past their deadline and lets go of closed ones.
    private var sweepEvent: OpaquePointer?
    /// Runs before each request is handled: chat's writes of this turn are committed first
    /// (`TurnCommit`), so what a request writes commits on its own before it is answered.
    var beforeEachRequest: () -> Void = {}

    /// `timeout`: seconds a connection may stay idle or half-sent before libevent drops it;
    /// `requestTimeout`: seconds for each whole request.
    init(eventBase: OpaquePointer, host: String, port: Int, timeout: Int, requestTimeout: Double = 10, router: RESTRouter,
         cors: CORSPolicy = .restAPI(.any), log: SandboxLog) throws {
        guard let http = evhttp_new(eventBase) else { throw RESTServerError(description: "evhttp_new failed") }
        self.router = router
        self.cors = cors
        self.log = log
        self.requestTimeout = requestTimeout
        evhttp_set_max_body_size(http, RESTServer.maximumBodySize)
        evhttp_set_max_headers_size(http, RESTServer.maximumHeadersSize)
        evhttp_set_timeout(http, Int32(max(1, timeout)))
        // libevent answers methods it is told to refuse with 501; letting them through gets them
        // a 405 in QuickBlox's shape from `parse` instead. Only GET/POST/PUT/DELETE reach routes;
        // OPTIONS is a browser's preflight (docs/protocol.md §10).
        let methods = [EVHTTP_REQ_GET, EVHTTP_REQ_POST, EVHTTP_REQ_PUT, EVHTTP_REQ_DELETE, EVHTTP_REQ_HEAD,
                       EVHTTP_REQ_OPTIONS, EVHTTP_REQ_TRACE, EVHTTP_REQ_CONNECT, EVHTTP_REQ_PATCH]
            .reduce(UInt32(0)) { $0 | UInt32($1.rawValue) }
        evhttp_set_allowed_methods(http, UInt16(methods))
        defaultContentType = strdup("application/json")!
        evhttp_set_default_content_type(http, defaultContentType)
        guard port >= 0, port <= 65535, let bound = evhttp_bind_socket_with_handle(http, host, UInt16(port)) else {
            evhttp_free(http)
            free(defaultContentType)
            throw RESTServerError(description: "cannot listen for REST on \(host):\(port): \(String(cString: strerror(errno)))")
        }
        boundPort = ListeningAddress.boundPort(of: evhttp_bound_socket_get_fd(bound)) ?? port
        self.http = http
        evhttp_set_gencb(http, { request, arg in
            guard let request, let arg else { return }
            Unmanaged<RESTServer>.fromOpaque(arg).takeUnretainedValue().serve(request)
        }, Unmanaged.passUnretained(self).toOpaque())
        // evhttp asks us for each accepted connection's bufferevent: the one place to see it begin.
        evhttp_set_bevcb(http, { base, arg in
            guard let base, let arg else { return nil }
            return Unmanaged<RESTServer>.fromOpaque(arg).takeUnretainedValue().connectionBegins(base)
        }, Unmanaged.passUnretained(self).toOpaque())
        sweepEvent = event_new(eventBase, -1, Int16(EV_PERSIST), { _, _, arg in
            guard let arg else { return }
            Unmanaged<RESTServer>.fromOpaque(arg).takeUnretainedValue().sweep()
        }, Unmanaged.passUnretained(self).toOpaque())
        var period = timeval(tv_sec: 0, tv_usec: 250_000)
        if let sweepEvent { event_add(sweepEvent, &period) }
    }

    deinit {
        close()
        free(defaultContentType)
    }

    /// Stops listening and drops every connection. Idempotent.
    func close() {
        if let sweepEvent { event_free(sweepEvent) }
        sweepEvent = nil
        guard let http else { return }
        evhttp_free(http)
        self.http = nil
        // evhttp has let go of every connection: ours are the last references.
        for bufferEvent in requestDeadlines.keys { bufferevent_decref(bufferEvent) }
        requestDeadlines = [:]
    }

    /// A new connection's bufferevent (evhttp gives it the socket), with its first deadline.
    private func connectionBegins(_ base: OpaquePointer) -> OpaquePointer? {
        guard let bufferEvent = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else { return nil }
        bufferevent_incref(bufferEvent)
        requestDeadlines[bufferEvent] = monotonicNow() + requestTimeout
        return bufferEvent
    }

    /// Lets go of connections evhttp has closed (it clears their callbacks when it frees them),
    /// and shuts down those past their deadline, which evhttp then closes as a vanished client.
    private func sweep() {
        let now = monotonicNow()
        for (bufferEvent, deadline) in requestDeadlines {
            var eventCallback: bufferevent_event_cb?
            bufferevent_getcb(bufferEvent, nil, nil, &eventCallback, nil)
            if eventCallback == nil {
                requestDeadlines[bufferEvent] = nil
                bufferevent_decref(bufferEvent)
            } else if now >= deadline {
                let socket = bufferevent_getfd(bufferEvent)
                if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
                requestDeadlines[bufferEvent] = .infinity
                log.log(.info, "rest: dropped a connection that sent no whole request within \(requestTimeout.rounded() == requestTimeout ? String(Int(requestTimeout)) : String(requestTimeout)) s")
            }
        }
    }

    private static func methodName(_ command: evhttp_cmd_type) -> String? {
        switch command {
        case EVHTTP_REQ_GET: return "GET"
        case EVHTTP_REQ_POST: return "POST"
        case EVHTTP_REQ_PUT: return "PUT"
        case EVHTTP_REQ_DELETE: return "DELETE"
        default: return nil
        }
    }

    private func serve(_ request: OpaquePointer) {
        // The next request on this connection gets a fresh deadline.
        if let connection = evhttp_request_get_connection(request), let bufferEvent = evhttp_connection_get_bufferevent(connection),
           requestDeadlines[bufferEvent] != nil {
            requestDeadlines[bufferEvent] = monotonicNow() + requestTimeout
        }
        let headers = RESTServer.inputHeaders(request)
        let origin = headers["origin"]
        var response: RESTResponse
        var line = "request"
        if evhttp_request_get_command(request) == EVHTTP_REQ_OPTIONS {
            // The path only: a query may hold a token.
            let path = evhttp_request_get_evhttp_uri(request).flatMap { evhttp_uri_get_path($0) }.map { String(cString: $0) }
            line = "OPTIONS " + (path ?? "?")
            response = preflight(origin: origin, headers: headers)
        } else {
            do throws(RESTError) {
                let parsed = try parse(request, headers: headers)
                line = "\(parsed.method) \(parsed.path)"
                beforeEachRequest()
                response = router.handle(parsed)
            } catch {
                response = error.response
            }
            // On errors and redirects too: a page reads a 422 or follows a 301 only with them.
            response.headers += cors.responseHeaders(origin: origin).map { ($0.name, $0.value) }
        }
        log.log(.debug, "\(line) -> \(response.status)")
        send(response, to: request)
    }

    /// A browser's preflight: 204 with the allow headers, or 403 for an origin `--cors-origin` leaves out.
    private func preflight(origin: String?, headers: [String: String]) -> RESTResponse {
        let answer = cors.preflight(origin: origin,
                                    privateNetwork: headers["access-control-request-private-network"]?.lowercased() == "true")
        var response = answer.refusal.map { RESTError.list(answer.status, $0).response } ?? .empty(answer.status)
        response.headers = answer.headers.map { ($0.name, $0.value) }
        if let refusal = answer.refusal { log.log(.info, "rest: preflight refused: \(refusal)") }
        return response
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

    /// Turns the evhttp request into a `RESTRequest`.
    private func parse(_ request: OpaquePointer, headers: [String: String]) throws(RESTError) -> RESTRequest {
        guard let method = RESTServer.methodName(evhttp_request_get_command(request)) else {
            throw .list(405, "Method not allowed")
        }
        guard let uri = evhttp_request_get_evhttp_uri(request), let rawPath = evhttp_uri_get_path(uri) else {
            throw .badRequest("Malformed request URI")
        }
        guard let decoded = evhttp_uridecode(rawPath, 0, nil) else { throw .badRequest("Malformed request path") }
        let path = String(cString: decoded)
        free(decoded)
        let query = evhttp_uri_get_query(uri).map { String(cString: $0) }

        var body: [UInt8] = []
        if let input = evhttp_request_get_input_buffer(request) {
            let length = evbuffer_get_length(input)
            if length > RESTServer.maximumBodySize { throw .list(413, "Request entity too large") }
            body = [UInt8](repeating: 0, count: length)
            let copied = body.withUnsafeMutableBytes { evbuffer_remove(input, $0.baseAddress, length) }
            if copied < 0 { throw .badRequest("Unreadable request body") }
            body.removeLast(length - Int(copied))
        }
        return try RESTRequest(method: method, path: path, headers: headers, query: query, body: body)
    }

    private func send(_ response: RESTResponse, to request: OpaquePointer) {
        if let out = evhttp_request_get_output_headers(request) {
            if response.body != nil { evhttp_add_header(out, "Content-Type", "application/json; charset=utf-8") }
            for (name, value) in response.headers { evhttp_add_header(out, name, value) }
        }
        guard let buffer = evbuffer_new() else {
            evhttp_send_error(request, 500, nil)
            return
        }
        if let body = response.body {
            let bytes = Array(body.serialized.utf8)
            bytes.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
        }
        evhttp_send_reply(request, Int32(response.status), RESTServer.reason(response.status), buffer)
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

@available(*, unavailable) extension RESTServer: Sendable {}
