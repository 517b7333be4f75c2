// The route table: method + path pattern → handler. New endpoints (dialogs, messages) are new rows.
import SandboxClock
import SandboxStorage

/// Which session a route needs before its handler runs.
enum RouteAccess {
    /// No token needed (e.g. creating a session).
    case open
    /// Any live session (application or user).
    case session
    /// A live user session; an application session gets 422 "Forbidden. Need user.".
    case user
    /// A live session when a token is given, in `QB-Token` or as `?token=` (what a link
    /// to a blob carries); none otherwise, and the handler decides.
    case optionalSession
}

/// A path such as `/users/{id}.json`: segments of literal text with at most one `{name}` each.
struct PathPattern {
    private struct Segment {
        var prefix: String
        var parameter: String?
        var suffix: String
    }
    private let segments: [Segment]

    init(_ pattern: String) {
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { raw in
            let s = String(raw)
            guard let open = s.firstIndex(of: "{"), let close = s.firstIndex(of: "}"), open < close else {
                return Segment(prefix: s, parameter: nil, suffix: "")
            }
            return Segment(prefix: String(s[..<open]), parameter: String(s[s.index(after: open)..<close]),
                           suffix: String(s[s.index(after: close)...]))
        }
    }

    /// The captured parameters when `path` matches; nil otherwise.
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == segments.count else { return nil }
        var captured: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            guard let name = segment.parameter else {
                guard part == segment.prefix else { return nil }
                continue
            }
            guard part.hasPrefix(segment.prefix), part.hasSuffix(segment.suffix),
                  part.count > segment.prefix.count + segment.suffix.count else { return nil }
            let value = part.dropFirst(segment.prefix.count).dropLast(segment.suffix.count)
            captured[name] = String(value)
        }
        return captured
    }
}

/// What a handler is given: the parsed request and the session it was authorized with.
struct RESTContext {
    var request: RESTRequest
    /// The live (already slid) session; nil on `.open` routes.
    var session: SessionRecord?
}

typealias RESTHandler = (RESTContext) throws(RESTError) -> RESTResponse

struct RESTRoute {
    var method: String
    var pattern: PathPattern
    var access: RouteAccess
    var handler: RESTHandler

    init(_ method: String, _ pattern: String, _ access: RouteAccess, _ handler: @escaping RESTHandler) {
        self.method = method
        self.pattern = PathPattern(pattern)
        self.access = access
        self.handler = handler
    }
}

/// Dispatches a request to the first matching route, resolving its session first.
package struct RESTRouter {
    var routes: [RESTRoute] = []
    /// Looks up and slides a session by token; nil when unknown or expired.
    var resolveSession: (String) throws -> SessionRecord?

    mutating func add(_ route: RESTRoute) { routes.append(route) }

    package func handle(_ incoming: RESTRequest) -> RESTResponse {
        var request = incoming
        for route in routes where route.method == request.method {
            guard let captured = route.pattern.match(request.path) else { continue }
            request.pathParameters = captured
            do throws(RESTError) {
                var session: SessionRecord?
                if route.access != .open {
                    var given = request.header("QB-Token")
                    if route.access == .optionalSession && (given ?? "").isEmpty { given = request.parameter("token") }
                    guard let token = given, !token.isEmpty else {
                        if route.access == .optionalSession { return try route.handler(RESTContext(request: request, session: nil)) }
                        throw .tokenRequired
                    }
                    do { session = try resolveSession(token) } catch let error as RESTError { throw error } catch { throw .internalError }
                    guard let live = session else { throw .sessionMissing }
                    if route.access == .user && live.userId == 0 { throw .needUser }
                }
                var response = try route.handler(RESTContext(request: request, session: session))
                if let session, !response.endsSession, !response.headers.contains(where: { $0.0 == "QB-Token-ExpirationDate" }) {
                    response.headers.append(("QB-Token-ExpirationDate", SandboxTime.expirationHeader(session.expiresAt)))
                }
                return response
            } catch {
                return error.response
            }
        }
        return RESTError.notFound.response
    }
}
