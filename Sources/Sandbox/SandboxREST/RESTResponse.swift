import SandboxJSON

/// What a handler returns.
package struct RESTResponse {
    package var status: Int
    /// nil: an empty body.
    package var body: JSONNode?
    var headers: [(String, String)] = []
    /// The session is gone (log-out): no `QB-Token-ExpirationDate` header.
    var endsSession = false

    static func json(_ status: Int, _ body: JSONNode) -> RESTResponse { RESTResponse(status: status, body: body) }
    static func empty(_ status: Int = 200) -> RESTResponse { RESTResponse(status: status, body: nil) }
}
