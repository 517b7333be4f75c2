// `GET /account_settings.json` (docs/protocol.md §1): where an account's API and chat live.
import SandboxJSON

/// The sandbox's own endpoints: its API and chat as a config names them (`http://…`, `xmpp://…`),
/// and the chat domain.
package struct AccountEndpoints {
    var api: String
    /// nil when chat is off (`--no-chat`).
    var chat: String?
    var chatDomain: String

    package init(api: String, chat: String?, chatDomain: String) {
        self.api = api
        self.chat = chat
        self.chatDomain = chatDomain
    }
}

extension SandboxAPI {
    /// No session needed; the account key travels in `QB-Account-Key`. Without
    /// one: 401; an unknown one: 404. `chat_endpoint` is the chat domain, as the hosted service
    /// names its chat host: QuickBlox's SDKs take it for the domain of every JID (and a
    /// WebSocket on its port 5291). `chat_url`, the sandbox's own member, says where its chat
    /// really listens, which chatctl prefers; there is no TURN server.
    func accountSettings(_ context: PublicContext) throws(RESTError) -> RESTResponse {
        try requireAccountKey(context)
        var members: [(String, JSONNode)] = [
            ("api_endpoint", .string(accountEndpoints.api)),
            ("chat_endpoint", accountEndpoints.chat == nil ? .null : .string(accountEndpoints.chatDomain)),
            ("turnserver_endpoint", .null),
        ]
        if let chat = accountEndpoints.chat { members.append(("chat_url", .string(chat))) }
        return .json(200, .object(members))
    }

    /// The account key in `QB-Account-Key`, what the routes for the account's developer take
    /// instead of a session: 401 without one, 404 for another account's.
    func requireAccountKey<Session>(_ context: RESTContext<Session>) throws(RESTError) {
        guard let key = context.request.header("QB-Account-Key"), !key.isEmpty else {
            throw .list(401, "Account key is required")
        }
        guard key == credentials.accountKey else { throw .notFound }
    }
}
