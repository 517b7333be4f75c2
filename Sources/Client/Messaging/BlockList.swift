import Diagnostics
import XMPPTransport

/// Whom the user blocks, as QuickBlox's apps block (docs/protocol.md §7, "Privacy lists"):
/// the privacy list chatctl reads and edits, and the edits themselves, pure. The list is the
/// user's default one, whatever made it, else one named `public` (the name QuickBlox's own
/// documentation and sample apps block with), else a new `public`; an edit keeps every rule it
/// is not about, so a list another app made stays that app's.
package struct BlockList: Sendable, Equatable {
    /// The list made when the user has none to edit.
    package static let preferredName = "public"

    package var name: String
    /// As the server keeps it; nil while it does not exist.
    package var list: PrivacyList?
    /// Whether it is the user's default list already (the one that applies to every session).
    package var isDefault: Bool

    package init(name: String, list: PrivacyList?, isDefault: Bool) {
        self.name = name; self.list = list; self.isDefault = isDefault
    }

    /// The users blocked, in the list's order.
    package var blockedUserIDs: [Int] { list?.blockedUserIDs ?? [] }

    /// Which list to read and edit, given the user's lists and default.
    package static func listName(among names: [String], default defaultName: String?) -> String {
        if let defaultName, names.contains(defaultName) { return defaultName }
        return preferredName
    }

    /// The list with the user of `jid` blocked as the SDKs block (their JID, their nick in every room),
    /// those two rules first, so that no rule of another app lets them through; the other rules
    /// follow in their order, renumbered after them.
    package func blocking(_ jid: ChatJID) -> PrivacyList {
        var rules = PrivacyList.blockingRules(jid, order: 1)
        for rule in list?.rules ?? [] {
            var kept = rule
            kept.order = rules.count + 1
            rules.append(kept)
        }
        return PrivacyList(name: name, rules: rules)
    }

    /// The list without the rules that deny the user of `jid` (by their JID or their nick in rooms); every
    /// other rule kept as it is. No rules left means the list goes.
    package func unblocking(_ jid: ChatJID) -> PrivacyList {
        let user = jid.userID
        let nick = PrivacyList.roomNick(of: jid)
        let rules = (list?.rules ?? []).filter { rule in
            guard !rule.allows, case .jid(let value) = rule.match else { return true }
            return value != nick && ChatJID(parsing: value)?.userID != user
        }
        return PrivacyList(name: name, rules: rules)
    }
}
