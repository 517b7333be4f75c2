/// A JID split into node, domain and resource, with the QuickBlox conventions:
/// users are `{userId}-{appId}@{chatDomain}`, group rooms `{appId}_{dialogId}@muc.{chatDomain}`.
public struct ChatJID: Sendable, Hashable, CustomStringConvertible {
    public var node: String?
    public var domain: String
    public var resource: String?

    public init(node: String?, domain: String, resource: String? = nil) {
        self.node = node; self.domain = domain; self.resource = resource
    }

    /// `node@domain/resource`, `node@domain` or `domain`; nil for empty parts.
    public init?(parsing text: String) {
        var rest = Substring(text)
        var resource: String?
        if let slash = rest.firstIndex(of: "/") {
            resource = String(rest[rest.index(after: slash)...])
            rest = rest[..<slash]
            if resource!.isEmpty { return nil }
        }
        var node: String?
        if let at = rest.firstIndex(of: "@") {
            node = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
            if node!.isEmpty { return nil }
        }
        guard !rest.isEmpty else { return nil }
        self.init(node: node, domain: String(rest), resource: resource)
    }

    /// The user JID `{userId}-{appId}@{domain}`.
    public static func user(_ userID: Int, appID: Int, domain: String) -> ChatJID {
        ChatJID(node: "\(userID)-\(appID)", domain: domain)
    }

    /// The group room JID `{appId}_{dialogId}@{mucDomain}` (`muc.` + the chat domain).
    public static func room(dialogID: String, appID: Int, mucDomain: String) -> ChatJID {
        ChatJID(node: "\(appID)_\(dialogID)", domain: mucDomain)
    }

    public var bare: ChatJID { ChatJID(node: node, domain: domain) }

    public func with(resource: String) -> ChatJID { ChatJID(node: node, domain: domain, resource: resource) }

    public var description: String {
        var text = node.map { "\($0)@" } ?? ""
        text += domain
        if let resource { text += "/\(resource)" }
        return text
    }

    /// The user id of a user JID (`{userId}-{appId}`), else nil.
    public var userID: Int? {
        guard let node, let dash = node.firstIndex(of: "-") else { return nil }
        return Int(node[..<dash])
    }

    /// The dialog id of a room JID (`{appId}_{dialogId}`), else nil.
    public var roomDialogID: String? {
        guard let node, let underscore = node.firstIndex(of: "_"),
              node[..<underscore].allSatisfy(\.isNumber), !node[..<underscore].isEmpty else { return nil }
        let dialog = node[node.index(after: underscore)...]
        return dialog.isEmpty ? nil : String(dialog)
    }
}
