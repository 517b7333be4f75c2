// An HTTP request as values, between the server that reads it (libevent's evhttp, in
// SandboxNetwork) and the service that answers it (REST), so that neither knows the other.

/// One request as the HTTP server read it: what the service needs to answer it, or to
/// refuse it (an unknown method, a malformed URI, path or body), in the order it chooses.
package struct HTTPRequest {
    package enum Method: Equatable, Sendable {
        case get, post, put, delete, options, other

        /// As a request line spells it (any other method read from one is `.other`).
        package init(name: String) {
            self = switch name {
            case "GET": .get
            case "POST": .post
            case "PUT": .put
            case "DELETE": .delete
            case "OPTIONS": .options
            default: .other
            }
        }

        /// As a request line and the log spell it.
        package var name: String {
            switch self {
            case .get: "GET"
            case .post: "POST"
            case .put: "PUT"
            case .delete: "DELETE"
            case .options: "OPTIONS"
            case .other: "OTHER"
            }
        }
    }

    /// Why part of a request could not be read.
    package enum Problem: Error, Equatable {
        case malformedURI
        case malformedPath
        case bodyTooLarge
        case unreadableBody
    }

    package var method: Method
    /// Names lowercased; a repeated header: its last value.
    package var headers: [String: String]
    /// The path as sent, escapes and all (what a log line may show: a query may hold a token).
    package var rawPath: String?
    /// The path percent-decoded.
    package var path: Result<String, Problem>
    package var query: String?
    package var body: Result<[UInt8], Problem>
    /// The client's address without its port (what wrong passwords are counted against); nil: unknown.
    package var peerAddress: String?

    package init(method: Method, headers: [String: String], rawPath: String?, path: Result<String, Problem>,
                 query: String?, body: Result<[UInt8], Problem>) {
        self.method = method
        self.headers = headers
        self.rawPath = rawPath
        self.path = path
        self.query = query
        self.body = body
    }
}
