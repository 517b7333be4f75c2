import ChatIdentifiers

/// A JID split into node, domain and resource, with the QuickBlox conventions:
/// users are `{userId}-{appId}@{chatDomain}`, group rooms `{appId}_{dialogId}@muc.{chatDomain}`.
package struct ChatJID: Sendable, Hashable, CustomStringConvertible {
    package var node: String?
    package var domain: String
    package var resource: String?

    package init(node: String?, domain: String, resource: String? = nil) {
        self.node = node; self.domain = domain; self.resource = resource
    }

    /// `node@domain/resource`, `node@domain` or `domain`; nil for empty parts.
    /// Split at the first `/` and the `@` before it, found in the UTF-8 bytes (by
    /// Character it was a tenth of `listen`'s time, two JIDs a message).
    package init?(parsing text: String) {
        let bytes = text.utf8
        var end = bytes.endIndex
        var resource: String?
        if let slash = bytes.firstIndex(of: UInt8(ascii: "/")) {
            let start = bytes.index(after: slash)
            guard start != bytes.endIndex else { return nil }
            resource = String(text.unicodeScalars[start...])
            end = slash
        }
        var start = bytes.startIndex
        var node: String?
        if let at = bytes[..<end].firstIndex(of: UInt8(ascii: "@")) {
            guard at != bytes.startIndex else { return nil }
            node = String(text.unicodeScalars[..<at])
            start = bytes.index(after: at)
        }
        guard start != end else { return nil }
        self.init(node: node, domain: String(text.unicodeScalars[start..<end]), resource: resource)
    }

    /// The user JID `{userId}-{appId}@{domain}`.
    package static func user(_ userID: Int, appID: Int, domain: String) -> ChatJID {
        ChatJID(node: "\(userID)-\(appID)", domain: domain)
    }

    /// The group room JID `{appId}_{dialogId}@{mucDomain}` (`muc.` + the chat domain).
    package static func room(dialogID: DialogID, appID: Int, mucDomain: String) -> ChatJID {
        ChatJID(node: "\(appID)_\(dialogID)", domain: mucDomain)
    }

    package var bare: ChatJID { ChatJID(node: node, domain: domain) }

    package func with(resource: String) -> ChatJID { ChatJID(node: node, domain: domain, resource: resource) }

    package var description: String {
        var text = node.map { "\($0)@" } ?? ""
        text += domain
        if let resource { text += "/\(resource)" }
        return text
    }

    /// The user id of a user JID (`{userId}-{appId}`), else nil.
    package var userID: Int? {
        guard let node, let dash = node.utf8.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        return Int(node[..<dash])
    }

    /// The dialog id of a room JID (`{appId}_{dialogId}`), else nil.
    package var roomDialogID: DialogID? {
        guard let node, let underscore = node.firstIndex(of: "_"),
              node[..<underscore].allSatisfy(\.isNumber), !node[..<underscore].isEmpty else { return nil }
        let dialog = node[node.index(after: underscore)...]
        return dialog.isEmpty ? nil : DialogID(String(dialog))
    }
}
