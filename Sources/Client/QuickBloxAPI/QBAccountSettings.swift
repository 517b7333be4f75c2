/// `GET /account_settings.json`: where an (enterprise) account's API and chat live.
package struct QBAccountSettings: Sendable, Equatable {
    /// e.g. "https://apicustomdomain.quickblox.com"; nil when the server did not say.
    package var apiEndpoint: String?
    /// e.g. "chatcustomdomain.quickblox.com".
    package var chatEndpoint: String?
    package var raw: [String: JSONValue]
    package init(apiEndpoint: String?, chatEndpoint: String?, raw: [String: JSONValue]) {
        self.apiEndpoint = apiEndpoint; self.chatEndpoint = chatEndpoint; self.raw = raw
    }
}
