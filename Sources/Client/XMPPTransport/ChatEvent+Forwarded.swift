extension ChatEvent {
    /// Everything `parse(_:receivedAt:)` reads, plus what needs to know who we are or
    /// is not a chat message: carbons (XEP-0280; only from `ownJID`'s bare JID, others
    /// are forgeries and ignored) and QuickBlox system notifications (`type="headline"`).
    package static func parse(_ stanza: StanzaElement, receivedAt: Int, ownJID: ChatJID?) -> ChatEvent? {
        guard stanza.name == "message" else { return nil }
        if stanza[attribute: "type"] == "headline" {
            return IncomingSystemNotification(parsing: stanza).map(ChatEvent.systemNotification)
        }
        if IncomingCarbon.isCarbon(stanza) {
            return IncomingCarbon.parse(stanza, ownJID: ownJID, receivedAt: receivedAt).map(ChatEvent.carbon)
        }
        return parse(stanza, receivedAt: receivedAt)
    }
}
