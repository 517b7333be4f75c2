/// Contact lists and privacy lists (docs/protocol.md §7, "Contact lists", "Privacy lists"):
/// requests go out here, not tracked; their answers and the server's pushes come as
/// `.roster`, `.privacy` and `.subscription` events, a request's answer under the id it
/// returns.
extension XMPPConnection {
    /// Asks for the whole contact list; after it the server pushes every change.
    package func requestRoster() throws(XMPPError) -> String {
        let id = idGenerator.next().description
        _ = try sendStanza(RosterQuery.request(id: id).xml(), messageID: nil)
        return id
    }

    /// Adds (or renames) `contact` in the contact list, or with `remove` takes them out.
    package func setRosterItem(_ contact: ChatJID, name: String? = nil, remove: Bool = false) throws(XMPPError) -> String {
        let id = idGenerator.next().description
        _ = try sendStanza(RosterQuery.set(contact, name: name, remove: remove, id: id).xml(), messageID: nil)
        return id
    }

    /// Asks to see `user`'s presence, grants, withdraws or refuses it.
    package func sendSubscription(_ kind: SubscriptionPresence.Kind, to user: ChatJID) throws(XMPPError) {
        _ = try sendStanza(SubscriptionPresence.stanza(kind, to: user).xml(), messageID: nil)
    }

    package func sendPrivacy(_ request: PrivacyQuery.Request) throws(XMPPError) -> String {
        let id = idGenerator.next().description
        _ = try sendStanza(PrivacyQuery.stanza(request, id: id).xml(), messageID: nil)
        return id
    }

    /// A roster or privacy list IQ, reported; a push acknowledged as RFC 6121 and XEP-0016
    /// ask. False when it is neither.
    func handleContactIQ(_ element: StanzaElement) -> Bool {
        let own = boundJID.flatMap(ChatJID.init(parsing:))
        if let update = RosterUpdate(element, ownJID: own) {
            if case .push = update { acknowledgePush(element) }
            emit(.roster(update))
            return true
        }
        if let answer = PrivacyAnswer(element, ownJID: own) {
            if case .changed = answer { acknowledgePush(element) }
            emit(.privacy(answer))
            return true
        }
        return false
    }

    private func acknowledgePush(_ push: StanzaElement) {
        guard let answer = Self.acknowledgement(of: push) else { return }
        _ = try? sendStanza(answer.xml(), messageID: nil)
    }

    /// The empty result that acknowledges a server's push (RFC 6121 §2.1.6, XEP-0016 §2.6).
    static func acknowledgement(of push: StanzaElement) -> StanzaElement? {
        guard let id = push[attribute: "id"] else { return nil }
        return StanzaElement("iq", attributes: [.init("type", "result"), .init("id", id)])
    }
}
