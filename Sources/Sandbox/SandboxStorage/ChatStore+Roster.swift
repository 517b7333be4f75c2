// Contact lists (RFC 6121 rosters, docs/protocol.md §7 "Contact lists"): each user's items with
// their subscription states; the XMPP side's `RosterService` decides the transitions.
internal import SQLiteStore

/// Who receives whose presence: `to`, the user receives the contact's; `from`, the contact the
/// user's; `both`, each the other's (RFC 6121 §2.1.2.5).
package enum RosterSubscription: String, Sendable {
    case none, to, from, both

    /// Whether the user receives the contact's presence.
    package var receives: Bool { self == .to || self == .both }
    /// Whether the contact receives the user's presence.
    package var sends: Bool { self == .from || self == .both }

    package init(receives: Bool, sends: Bool) {
        switch (receives, sends) {
        case (true, true): self = .both
        case (true, false): self = .to
        case (false, true): self = .from
        case (false, false): self = .none
        }
    }
}

/// One contact in a user's roster, or a subscription request the user has not answered yet.
package struct RosterItem: Equatable, Sendable {
    package var contactId: Int
    package var subscription: RosterSubscription = .none
    /// The user asked for the contact's presence and has no answer yet (`ask='subscribe'`).
    package var askOut = false
    /// The contact asked for the user's presence and has no answer yet ("Pending In").
    package var pendingIn = false
    /// Whether the item is in the roster: a request alone ("None + Pending In") is not.
    package var listed = false
    package var name: String?
    package var groups: [String] = []

    package init(contactId: Int) { self.contactId = contactId }

    /// An item with nothing left in it is no row at all.
    var isEmpty: Bool { !listed && !pendingIn && !askOut && subscription == .none }
}

extension ChatStore {
    /// `userId`'s items that are in the roster, by contact id.
    package func rosterItems(of userId: Int) throws -> [RosterItem] {
        try db.records("SELECT * FROM roster_items WHERE user_id = ? AND listed = 1 ORDER BY contact_id", [.int(userId)], Self.rosterItem)
    }

    /// `userId`'s item for `contactId`, listed or only a pending request; nil when there is neither.
    package func rosterItem(of userId: Int, contact contactId: Int) throws -> RosterItem? {
        try db.firstRecord("SELECT * FROM roster_items WHERE user_id = ? AND contact_id = ?", [.int(userId), .int(contactId)], Self.rosterItem)
    }

    /// Writes `item` as `userId`'s (an empty one is removed).
    package func saveRosterItem(_ item: RosterItem, of userId: Int) throws {
        guard !item.isEmpty else {
            _ = try db.run("DELETE FROM roster_items WHERE user_id = ? AND contact_id = ?", [.int(userId), .int(item.contactId)])
            return
        }
        _ = try db.run("""
            INSERT INTO roster_items (user_id, contact_id, subscription, ask_out, pending_in, listed, name, groups)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, contact_id) DO UPDATE SET subscription = excluded.subscription, ask_out = excluded.ask_out,
                pending_in = excluded.pending_in, listed = excluded.listed, name = excluded.name, groups = excluded.groups
            """, [.int(userId), .int(item.contactId), .text(item.subscription.rawValue), .int(item.askOut ? 1 : 0),
                  .int(item.pendingIn ? 1 : 0), .int(item.listed ? 1 : 0), .optional(item.name),
                  .text(item.groups.joined(separator: "\n"))])
    }

    /// The users whose presence `userId` receives (`to` or `both` in `userId`'s roster).
    package func presenceSubscriptions(of userId: Int) throws -> Set<Int> {
        Set(try db.records("SELECT contact_id FROM roster_items WHERE user_id = ? AND subscription IN ('to', 'both')",
                           [.int(userId)]) { $0.int("contact_id") })
    }

    /// The users who receive `userId`'s presence (`from` or `both` in `userId`'s roster).
    package func presenceSubscribers(of userId: Int) throws -> Set<Int> {
        Set(try db.records("SELECT contact_id FROM roster_items WHERE user_id = ? AND subscription IN ('from', 'both')",
                           [.int(userId)]) { $0.int("contact_id") })
    }

    /// The users whose subscription requests to `userId` wait for an answer, oldest contact id first.
    package func pendingSubscriptionRequests(to userId: Int) throws -> [Int] {
        try db.records("SELECT contact_id FROM roster_items WHERE user_id = ? AND pending_in = 1 ORDER BY contact_id",
                       [.int(userId)]) { $0.int("contact_id") }
    }

    private static func rosterItem(_ row: Row) -> RosterItem {
        var item = RosterItem(contactId: row.int("contact_id"))
        item.subscription = RosterSubscription(rawValue: row.string("subscription") ?? "") ?? .none
        item.askOut = row.int("ask_out") != 0
        item.pendingIn = row.int("pending_in") != 0
        item.listed = row.int("listed") != 0
        item.name = row.string("name")
        item.groups = (row.string("groups") ?? "").split(separator: "\n").map(String.init)
        return item
    }
}
