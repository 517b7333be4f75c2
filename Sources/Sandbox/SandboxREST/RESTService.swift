// The REST API behind whatever HTTP server reads the requests (evhttp, in SandboxNetwork):
// CORS first (docs/protocol.md §10), then the request decoded and routed, and the answer
// written in QuickBlox's JSON. HTTP values in and out, so it runs and is fuzzed without sockets.
import SandboxHTTP
import SandboxLogging

/// Answers the HTTP requests of the REST port. Loop thread only (the router's storage is).
package final class RESTService {
    /// Hostile-input limits: bodies over this get 413 (from the HTTP server, which reads no more).
    package static let maximumBodySize = 1 << 20
    package static let maximumHeadersSize = 16 << 10

    private let router: RESTRouter
    /// The Access-Control-* headers of every answer, and the answer to a preflight.
    private let cors: CORSPolicy
    private let log: SandboxLog
    /// Runs before each request is handled: chat's writes of this turn are committed first
    /// (`TurnCommit`), so what a request writes commits on its own before it is answered.
    package var beforeEachRequest: () -> Void = {}

    package init(router: RESTRouter, cors: CORSPolicy = .restAPI(.any), log: SandboxLog) {
        self.router = router
        self.cors = cors
        self.log = log
    }

    package func answer(_ request: HTTPRequest) -> HTTPAnswer {
        let origin = request.headers["origin"]
        var response: RESTResponse
        var line = "request"
        if request.method == .options {
            // The path only: a query may hold a token.
            line = "OPTIONS " + (request.rawPath ?? "?")
            response = preflight(origin: origin, headers: request.headers)
        } else {
            do throws(RESTError) {
                let parsed = try Self.parse(request)
                line = "\(parsed.method.name) \(parsed.path)"
                beforeEachRequest()
                response = router.handle(parsed)
            } catch {
                response = error.response
            }
            // On errors and redirects too: a page reads a 422 or follows a 301 only with them.
            response.headers += cors.responseHeaders(origin: origin).map { ($0.name, $0.value) }
        }
        log.log(.debug, "\(line) -> \(response.status)")
        var headers = response.body == nil ? [] : [("Content-Type", "application/json; charset=utf-8")]
        headers += response.headers
        return HTTPAnswer(status: response.status, headers: headers, body: response.body.map { Array($0.serialized.utf8) } ?? [])
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

    /// The HTTP request as a `RESTRequest`, or the error it is answered with (checked in this order).
    private static func parse(_ request: HTTPRequest) throws(RESTError) -> RESTRequest {
        let method = request.method
        guard [.get, .post, .put, .delete].contains(method) else { throw .list(405, "Method not allowed") }
        let path: String
        switch request.path {
        case .success(let decoded): path = decoded
        case .failure(.malformedURI): throw .badRequest("Malformed request URI")
        case .failure: throw .badRequest("Malformed request path")
        }
        let body: [UInt8]
        switch request.body {
        case .success(let bytes): body = bytes
        case .failure(.bodyTooLarge): throw .list(413, "Request entity too large")
        case .failure: throw .badRequest("Unreadable request body")
        }
        var parsed = try RESTRequest(method: method, path: path, headers: request.headers, query: request.query, body: body)
        parsed.peerAddress = request.peerAddress
        return parsed
    }
}

@available(*, unavailable) extension RESTService: Sendable {}
