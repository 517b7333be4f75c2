/// `GET /account_settings.json`: where an (enterprise) account's API and chat live.
public struct QBAccountSettings: Sendable, Equatable {
    /// e.g. "https://apicustomdomain.quickblox.com"; nil when the server did not say.
    public var apiEndpoint: String?
    /// e.g. "chatcustomdomain.quickblox.com".
    public var chatEndpoint: String?
    public var raw: [String: JSONValue]
    public init(apiEndpoint: String?, chatEndpoint: String?, raw: [String: JSONValue]) {
        self.apiEndpoint = apiEndpoint; self.chatEndpoint = chatEndpoint; self.raw = raw
    }
}
