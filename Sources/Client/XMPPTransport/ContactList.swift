/// One contact of the user's contact list: an item of their XMPP roster (RFC 6121 §2), as
/// QuickBlox keeps it (docs/protocol.md §7, "Contact lists"). Contacts are users, named by
/// their user JID `{userId}-{appId}@{domain}`; an item of any other JID is not read.
package struct RosterItem: Sendable, Equatable {
    /// Whose presence goes where: `to`, the user sees the contact's; `from`, the contact sees
    /// the user's; `remove` only in a push, for an item that is gone.
    package enum Subscription: String, Sendable {
        case none, to, from, both, remove
    }

    package var userID: Int
    package var name: String?
    package var subscription: Subscription
    /// The user asked to see the contact's presence and the contact has not answered
    /// (`ask="subscribe"`).
    package var isAwaitingApproval: Bool
    package var groups: [String]

    package init(userID: Int, name: String? = nil, subscription: Subscription, isAwaitingApproval: Bool = false,
                 groups: [String] = []) {
        self.userID = userID; self.name = name; self.subscription = subscription
        self.isAwaitingApproval = isAwaitingApproval; self.groups = groups
    }

    /// An `<item/>` of a roster query; nil for an item that names no user or has a
    /// subscription RFC 6121 does not know.
    init?(_ element: StanzaElement) {
        guard element.name == "item", let userID = element[attribute: "jid"].flatMap(ChatJID.init(parsing:))?.userID,
              let subscription = Subscription(rawValue: element[attribute: "subscription"] ?? "none") else { return nil }
        self.init(userID: userID, name: element[attribute: "name"].flatMap { $0.isEmpty ? nil : $0 },
                  subscription: subscription, isAwaitingApproval: element[attribute: "ask"] == "subscribe",
                  groups: element.children.filter { $0.name == "group" }.map(\.text))
    }
}

/// The contact list's requests and what answers them (RFC 6121 §2.1–2.5): the roster asked
/// for, an item removed, and the server's pushes when an item changes.
package enum RosterQuery {
    static let namespace = "jabber:iq:roster"
    /// Our requests' ids start so, to tell their answers from other IQs.
    static let idPrefix = "roster"

    /// `<iq type="get" id="roster…"><query xmlns="jabber:iq:roster"/></iq>`: the whole list;
    /// from then on the server pushes each change to this session.
    static func request(id: String) -> StanzaElement {
        StanzaElement("iq", attributes: [.init("type", "get"), .init("id", idPrefix + id)],
                      children: [StanzaElement("query", namespace: namespace)])
    }

    /// A roster set of one item: `subscription="remove"` takes the contact out (and ends both
    /// subscriptions); otherwise it adds or renames the item.
    static func set(_ contact: ChatJID, name: String? = nil, remove: Bool = false, id: String) -> StanzaElement {
        var attributes = [StanzaElement.Attribute("jid", contact.bare.description)]
        if remove {
            attributes.append(.init("subscription", "remove"))
        } else if let name {
            attributes.append(.init("name", name))
        }
        return StanzaElement("iq", attributes: [.init("type", "set"), .init("id", idPrefix + id)],
                             children: [StanzaElement("query", namespace: namespace, children: [StanzaElement("item", attributes: attributes)])])
    }
}

/// What the server says about the contact list: the list we asked for, a change it pushes,
/// or why a request of ours failed.
package enum RosterUpdate: Sendable, Equatable {
    /// The whole list, in the server's order.
    case roster([RosterItem])
    /// One item changed (or is gone: `.remove`); RFC 6121 §2.1.6.
    case push(RosterItem)
    /// A request of ours succeeded with nothing to say (a roster set).
    case done(id: String)
    /// A request of ours failed: the id without our prefix, and the condition.
    case refused(id: String, condition: String)

    /// Reads an `<iq>`; nil for anything that is not about the roster, and for a push that
    /// does not come from the server on the user's behalf (RFC 6121 §2.1.6: a push from
    /// another address must be ignored).
    package init?(_ stanza: StanzaElement, ownJID: ChatJID?) {
        guard stanza.name == "iq", let type = stanza[attribute: "type"] else { return nil }
        let query = stanza.child("query", namespace: RosterQuery.namespace)
        let id = stanza[attribute: "id"] ?? ""
        let ours = id.hasPrefix(RosterQuery.idPrefix) ? String(id.dropFirst(RosterQuery.idPrefix.count)) : nil
        switch type {
        case "set":
            guard let query, let item = query.children.first.flatMap(RosterItem.init) else { return nil }
            if let from = stanza[attribute: "from"].flatMap(ChatJID.init(parsing:)) {
                guard let ownJID, from.bare == ownJID.bare else { return nil }
            }
            self = .push(item)
        case "result":
            guard let ours else { return nil }
            if let query {
                self = .roster(query.children.compactMap(RosterItem.init))
            } else {
                self = .done(id: ours)
            }
        case "error":
            guard let ours else { return nil }
            self = .refused(id: ours, condition: ChatMessageError.details(of: stanza)?.condition ?? "undefined-condition")
        default:
            return nil
        }
    }
}

/// A subscription presence (RFC 6121 §3): a user asks to see another's presence
/// (`subscribe`), it is granted (`subscribed`), withdrawn (`unsubscribe`) or refused or
/// ended (`unsubscribed`). QuickBlox's contact requests are these.
package struct SubscriptionPresence: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case subscribe, subscribed, unsubscribe, unsubscribed
    }

    package var kind: Kind
    /// The other user: who sent it, or whom it is for.
    package var userID: Int

    package init(_ kind: Kind, userID: Int) { self.kind = kind; self.userID = userID }

    /// An incoming one, from a user's JID; nil for any other presence.
    package init?(_ stanza: StanzaElement) {
        guard stanza.name == "presence", let kind = stanza[attribute: "type"].flatMap(Kind.init(rawValue:)),
              let userID = stanza[attribute: "from"].flatMap(ChatJID.init(parsing:))?.userID else { return nil }
        self.init(kind, userID: userID)
    }

    /// `<presence type="…" to="{the user's bare JID}"/>`.
    static func stanza(_ kind: Kind, to user: ChatJID) -> StanzaElement {
        StanzaElement("presence", attributes: [.init("type", kind.rawValue), .init("to", user.bare.description)])
    }
}
