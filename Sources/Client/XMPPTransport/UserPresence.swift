/// A user's presence (RFC 6121 §4): one of their resources came online or went away. The
/// sandbox and QuickBlox send it from the user's full JID `{userId}-{appId}@{domain}/{resource}`
/// (docs/protocol.md §7, "Presence and last activity"). A room occupant's presence is a
/// `RoomPresence`, not this.
package struct UserPresence: Sendable, Equatable {
    package var userID: Int
    /// Nil when it came from the bare JID (the user as a whole).
    package var resource: String?
    package var isAvailable: Bool

    package init(userID: Int, resource: String?, isAvailable: Bool) {
        self.userID = userID; self.resource = resource; self.isAvailable = isAvailable
    }

    /// Nil for anything but an available or unavailable presence from a user JID: MUC
    /// occupants, subscriptions, probes, errors.
    package init?(_ stanza: StanzaElement) {
        guard stanza.name == "presence", let from = stanza[attribute: "from"].flatMap(ChatJID.init(parsing:)),
              from.roomDialogID == nil, let userID = from.userID,
              stanza.child("x", namespace: RoomPresence.mucUserNamespace) == nil else { return nil }
        switch stanza[attribute: "type"] {
        case nil: isAvailable = true
        case "unavailable": isAvailable = false
        default: return nil
        }
        self.userID = userID
        resource = from.resource
    }
}
