import SandboxJSON

/// A failure answered in QuickBlox's error shape.
package struct RESTError: Error {
    var status: Int
    var errors: JSONNode
    var headers: [(String, String)] = []

    var response: RESTResponse {
        var response = RESTResponse.json(status, .object([("errors", errors)]))
        response.headers += headers
        return response
    }

    /// `{"errors":["message"]}`
    static func list(_ status: Int, _ message: String) -> RESTError {
        RESTError(status: status, errors: .array([.string(message)]))
    }
    /// `{"errors":{"field":["message"]}}`
    static func field(_ status: Int, _ field: String, _ message: String) -> RESTError {
        RESTError(status: status, errors: .object([(field, .array([.string(message)]))]))
    }

    static func badRequest(_ message: String) -> RESTError { .list(400, message) }
    static let notFound = RESTError.list(404, "The resource wasn't found")
    static let tokenRequired = RESTError.list(401, "Token is required")
    static let sessionMissing = RESTError.field(401, "base", "Required session does not exist")
    static let unauthorized = RESTError.list(401, "Unauthorized")
    static let unexpectedSignature = RESTError.field(422, "base", "Unexpected signature")
    static let noApplication = RESTError.field(422, "base", "No application found")
    static let needUser = RESTError.field(422, "base", "Forbidden. Need user.")
    static let internalError = RESTError.list(500, "Internal server error")
    /// The disk is full (or the file-size limit reached): nothing of the request was stored.
    static let insufficientStorage = RESTError.list(507, "Insufficient storage: the server's disk is full; try again later")
    /// Too many wrong passwords for one user or from one address lately (docs/protocol.md §4).
    static func tooManyAttempts(retryAfter seconds: Int) -> RESTError {
        var error = RESTError.list(429, "Too many failed login attempts, retry in \(seconds) seconds")
        error.headers = [("Retry-After", String(seconds))]
        return error
    }
}
