// The route table: method + path pattern → handler. New endpoints (dialogs, messages) are new rows.
import SandboxHTTP
import SandboxClock
import SandboxStorage

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

/// What a handler is given: the parsed request, and the session its route's access level
/// promises (`RESTRoute`): none (`Void`), any live session (`SessionRecord`), a user's
/// (`UserSession`), or one only when a token came (`SessionRecord?`). A handler's type says
/// which routes may run it, so no handler checks again for what its route already did.
struct RESTContext<Session> {
    var request: RESTRequest
    var session: Session
}

/// A route that needs no token.
typealias PublicContext = RESTContext<Void>
/// A route that needs a live session, an application's or a user's.
typealias SessionContext = RESTContext<SessionRecord>
/// A route that needs a live user session.
typealias UserContext = RESTContext<UserSession>
/// A route that takes a session when a token is given, and runs without one otherwise.
typealias TokenContext = RESTContext<SessionRecord?>

/// A live session of a logged-in user: what `.user` routes are given.
struct UserSession {
    let record: SessionRecord
    var id: Int { record.id }
    /// Never 0 (an application session is no user's).
    var userId: Int { record.userId }

    /// nil for an application session.
    init?(_ record: SessionRecord) {
        guard record.userId != 0 else { return nil }
        self.record = record
    }
}

/// What every live session a handler is given says: whose it is (0: an application's).
protocol LiveSession { var userId: Int { get } }
extension SessionRecord: LiveSession {}
extension UserSession: LiveSession {}

/// The session a request's token names, its expiry slid; what a route asks before its handler runs.
struct SessionLookup {
    /// Looks up and slides a session by token; nil when unknown or expired.
    var resolve: (String) throws -> SessionRecord?

    /// The live session of `QB-Token`: 401 without a token, or with one unknown or expired.
    func live(_ request: RESTRequest) throws(RESTError) -> SessionRecord {
        guard let token = request.header("QB-Token"), !token.isEmpty else { throw .tokenRequired }
        return try session(token)
    }

    /// The live session of `QB-Token`, or of `?token=` (what a link to a blob carries); nil when
    /// neither is given, 401 for one unknown or expired.
    func given(_ request: RESTRequest) throws(RESTError) -> SessionRecord? {
        var token = request.header("QB-Token")
        if (token ?? "").isEmpty { token = request.parameter("token") }
        guard let token, !token.isEmpty else { return nil }
        return try session(token)
    }

    private func session(_ token: String) throws(RESTError) -> SessionRecord {
        let found: SessionRecord?
        do { found = try resolve(token) } catch let error as RESTError { throw error } catch { throw .internalError }
        guard let found else { throw .sessionMissing }
        return found
    }
}

/// A method and path pattern, its access level, and its handler. Made by the access level
/// (`.open`, `.session`, `.user`, `.optionalSession`), which decides what the handler is given.
struct RESTRoute {
    var method: HTTPRequest.Method
    var pattern: PathPattern
    /// Asks for what the access level needs, runs the handler; returns its response and the
    /// session it ran with (whose expiry the answer names).
    var run: (RESTRequest, SessionLookup) throws(RESTError) -> (response: RESTResponse, session: SessionRecord?)

    /// No token needed (e.g. creating a session).
    static func open(_ method: HTTPRequest.Method, _ pattern: String,
                     _ handler: @escaping (PublicContext) throws(RESTError) -> RESTResponse) -> RESTRoute {
        RESTRoute(method: method, pattern: PathPattern(pattern)) { (request, _) throws(RESTError) in
            (try handler(RESTContext(request: request, session: ())), nil)
        }
    }

    /// Any live session (application or user).
    static func session(_ method: HTTPRequest.Method, _ pattern: String,
                        _ handler: @escaping (SessionContext) throws(RESTError) -> RESTResponse) -> RESTRoute {
        RESTRoute(method: method, pattern: PathPattern(pattern)) { (request, sessions) throws(RESTError) in
            let session = try sessions.live(request)
            return (try handler(RESTContext(request: request, session: session)), session)
        }
    }

    /// A live user session; an application session gets 422 "Forbidden. Need user.".
    static func user(_ method: HTTPRequest.Method, _ pattern: String,
                     _ handler: @escaping (UserContext) throws(RESTError) -> RESTResponse) -> RESTRoute {
        RESTRoute(method: method, pattern: PathPattern(pattern)) { (request, sessions) throws(RESTError) in
            let session = try sessions.live(request)
            guard let user = UserSession(session) else { throw .needUser }
            return (try handler(RESTContext(request: request, session: user)), session)
        }
    }

    /// A live session when a token is given, in `QB-Token` or as `?token=`; none otherwise,
    /// and the handler decides.
    static func optionalSession(_ method: HTTPRequest.Method, _ pattern: String,
                                _ handler: @escaping (TokenContext) throws(RESTError) -> RESTResponse) -> RESTRoute {
        RESTRoute(method: method, pattern: PathPattern(pattern)) { (request, sessions) throws(RESTError) in
            let session = try sessions.given(request)
            return (try handler(RESTContext(request: request, session: session)), session)
        }
    }
}

/// Dispatches a request to the first matching route, which resolves its session first.
package struct RESTRouter {
    var routes: [RESTRoute] = []
    /// Looks up and slides a session by token; nil when unknown or expired.
    var resolveSession: (String) throws -> SessionRecord?

    mutating func add(_ route: RESTRoute) { routes.append(route) }

    package func handle(_ incoming: RESTRequest) -> RESTResponse {
        var request = incoming
        let sessions = SessionLookup(resolve: resolveSession)
        for route in routes where route.method == request.method {
            guard let captured = route.pattern.match(request.path) else { continue }
            request.pathParameters = captured
            do throws(RESTError) {
                let ran = try route.run(request, sessions)
                var response = ran.response
                if let session = ran.session, !response.endsSession,
                   !response.headers.contains(where: { $0.0 == "QB-Token-ExpirationDate" }) {
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
