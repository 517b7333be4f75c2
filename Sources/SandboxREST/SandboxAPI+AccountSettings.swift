// `GET /account_settings.json` (docs/protocol.md §1): where an account's API and chat live.
import SandboxJSON

/// The sandbox's own endpoints, as a config names them (`http://…`, `xmpp://…`).
package struct AccountEndpoints {
    var api: String
    /// nil when chat is off (`--no-chat`).
    var chat: String?

    package init(api: String, chat: String?) {
        self.api = api
        self.chat = chat
    }
}

extension SandboxAPI {
    /// No session needed; the account key travels in `QB-Account-Key`. Without
    /// one: 401; an unknown one: 404.
    func accountSettings(_ context: RESTContext) throws(RESTError) -> RESTResponse {
        try requireAccountKey(context)
        var members: [(String, JSONNode)] = [("api_endpoint", .string(accountEndpoints.api))]
        if let chat = accountEndpoints.chat { members.append(("chat_endpoint", .string(chat))) }
        return .json(200, .object(members))
    }

    /// The account key in `QB-Account-Key`, what the routes for the account's developer take
    /// instead of a session: 401 without one, 404 for another account's.
    func requireAccountKey(_ context: RESTContext) throws(RESTError) {
        guard let key = context.request.header("QB-Account-Key"), !key.isEmpty else {
            throw .list(401, "Account key is required")
        }
        guard key == credentials.accountKey else { throw .notFound }
    }
}
