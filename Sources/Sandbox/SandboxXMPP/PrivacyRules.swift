// How a privacy list decides (XEP-0016 §2.1–2.2, docs/protocol.md §7 "Privacy lists"): pure,
// so each rule is tested without a server.
import SandboxStorage

/// What a stanza is to the list that judges it.
enum PrivacyStanzaKind: String {
    case message, iq
    case presenceIn = "presence-in"
    case presenceOut = "presence-out"
    /// Anything else: a message the user sends, a subscription request either way. Only a rule
    /// that names no kind (blocks everything) matches it, as ejabberd, QuickBlox's server, does:
    /// QuickBlox's `mutualBlock` is such a rule.
    case other
}

/// A list's rules in order, and what the other party is to the list's owner.
struct PrivacyRules {
    var items: [PrivacyItem]

    init(_ items: [PrivacyItem]) { self.items = items.sorted { $0.order < $1.order } }

    /// The other party of a stanza: its address, and its item in the owner's roster.
    struct Party {
        var address: XMPPAddress
        var subscription: RosterSubscription = .none
        var groups: [String] = []
    }

    /// Whether the first rule that matches lets the stanza through; no rule matching does.
    func allows(_ kind: PrivacyStanzaKind, _ party: Party) -> Bool {
        for item in items where Self.applies(item, to: kind) && Self.matches(item, party) {
            return item.allows
        }
        return true
    }

    private static func applies(_ item: PrivacyItem, to kind: PrivacyStanzaKind) -> Bool {
        item.kinds.isEmpty || item.kinds.contains(kind.rawValue)
    }

    private static func matches(_ item: PrivacyItem, _ party: Party) -> Bool {
        guard let type = item.type else { return true }
        guard let value = item.value else { return false }
        switch type {
        case "jid": return XMPPAddress(value).map { jid($0, matches: party.address) } ?? false
        case "group": return party.groups.contains(value)
        case "subscription": return party.subscription.rawValue == value
        default: return false
        }
    }

    /// XEP-0016 §2.1's order of JID matches: `user@domain/resource` that one only,
    /// `user@domain` any of its resources, `domain/resource` that resource of any local part
    /// (a room occupant's nick in every room of a service), `domain` anyone there.
    static func jid(_ rule: XMPPAddress, matches address: XMPPAddress) -> Bool {
        guard rule.domain == address.domain else { return false }
        if let local = rule.local, local.lowercased() != address.local?.lowercased() { return false }
        if let resource = rule.resource, resource != address.resource { return false }
        return true
    }
}
