// Contact lists (RFC 6121 rosters, docs/protocol.md §7 "Contact lists") as QuickBlox's SDKs
// keep them: the roster a client asks for and the pushes that keep it current, subscription
// requests (`subscribe`), approvals (`subscribed`), cancellations and refusals, and an item's
// removal, each moving both users' items through RFC 6121's states.
import SandboxStorage
import SandboxXML

/// Answers `jabber:iq:roster` and carries subscription presences between users, keeping both
/// users' items. Presence itself stays `PresenceService`'s: this tells it when a new subscriber
/// should hear a contact, or stop hearing. Owned by the router; loop thread only.
final class RosterService {
    private let chat: ChatDomain
    private let sessions: BoundSessions
    private let records: StanzaStorage
    /// What the rosters write goes into the turn's transaction.
    private let turn: TurnCommit
    private let presence: PresenceService
    private let privacy: PrivacyService
    /// Sessions that asked for the roster, by connection number: only they get pushes (RFC 6121 §2.1.6).
    private var interested: Set<Int> = []
    private var pushes = 0

    init(chat: ChatDomain, sessions: BoundSessions, records: StanzaStorage, turn: TurnCommit,
         presence: PresenceService, privacy: PrivacyService) {
        self.chat = chat
        self.sessions = sessions
        self.records = records
        self.turn = turn
        self.presence = presence
        self.privacy = privacy
    }

    func sessionEnded(_ connection: XMPPClientConnection) { interested.remove(connection.number) }

    // MARK: jabber:iq:roster

    /// A get (the roster; the session gets pushes from now on) or a set (one item: added or
    /// renamed, or with `subscription='remove'` removed, RFC 6121 §2.5).
    func handle(_ iq: XMPPElement, type: IQType, from connection: XMPPClientConnection, sender: Int) {
        guard let query = iq.elements.first else { return }
        if type == .get {
            interested.insert(connection.number)
            let items = records.find { try $0.rosterItems(of: sender) } ?? []
            let payload = items.isEmpty ? "<query xmlns='\(XMPPNamespace.roster)'/>"
                : "<query xmlns='\(XMPPNamespace.roster)'>\(items.map(xml).joined())</query>"
            return connection.send(IQAnswer.result(iq, to: connection, payload: payload))
        }
        let bad = StanzaError(condition: .badRequest, type: .modify)
        guard query.elements.count == 1, let element = query.elements.first, element.name == "item",
              let jid = element[attribute: "jid"] else { return connection.send(IQAnswer.error(iq, to: connection, bad)) }
        guard let contact = XMPPAddress(jid).flatMap({ $0.resource == nil ? $0.userId(applicationId: chat.applicationId, domain: chat.name) : nil }),
              contact != sender, records.storage({ try $0.userExists(contact) }) == true else {
            return connection.send(IQAnswer.error(iq, to: connection, StanzaError(condition: .itemNotFound, text: "No such user")))
        }
        if element[attribute: "subscription"] == "remove" {
            guard let item = item(of: sender, contact), item.listed || item.pendingIn || item.askOut else {
                return connection.send(IQAnswer.error(iq, to: connection, StanzaError(condition: .itemNotFound)))
            }
            if item.subscription.receives || item.askOut { unsubscribe(sender, from: contact) }
            if item.subscription.sends || item.pendingIn { unsubscribed(sender, to: contact) }
            var removed = RosterItem(contactId: contact)
            removed.listed = false
            save(removed, of: sender, wasListed: true)
            return connection.send(IQAnswer.result(iq, to: connection))
        }
        var item = item(of: sender, contact) ?? RosterItem(contactId: contact)
        let wasListed = item.listed
        item.listed = true
        item.name = element[attribute: "name"].flatMap { $0.isEmpty ? nil : $0 }
        item.groups = element.elements.filter { $0.name == "group" }.map(\.text).filter { !$0.isEmpty }
        save(item, of: sender, wasListed: wasListed)
        connection.send(IQAnswer.result(iq, to: connection))
    }

    /// `<item jid='…' subscription='…' [ask='subscribe'] [name='…']><group>…</group></item>`.
    private func xml(_ item: RosterItem) -> String {
        var text = "<item jid='\(XMLEscaping.attribute(chat.userJID(item.contactId)))' subscription='\(item.subscription.rawValue)'"
        if item.askOut { text += " ask='subscribe'" }
        if let name = item.name { text += " name='\(XMLEscaping.attribute(name))'" }
        guard !item.groups.isEmpty else { return text + "/>" }
        return text + ">" + item.groups.map { "<group>\(XMLEscaping.text($0))</group>" }.joined() + "</item>"
    }

    private func item(of userId: Int, _ contact: Int) -> RosterItem? {
        records.find { try $0.rosterItem(of: userId, contact: contact) }
    }

    /// Stores `item` as `userId`'s and pushes it to their interested sessions when it is (or
    /// was) in the roster: a removed one as `subscription='remove'`.
    private func save(_ item: RosterItem, of userId: Int, wasListed: Bool) {
        turn.beginWriting()
        guard records.storage({ try $0.saveRosterItem(item, of: userId) }) != nil, item.listed || wasListed else { return }
        let shown = item.listed ? xml(item) : "<item jid='\(XMLEscaping.attribute(chat.userJID(item.contactId)))' subscription='remove'/>"
        for connection in sessions[userId]?.values.map({ $0 }) ?? [] where interested.contains(connection.number) {
            guard let jid = connection.session.fullJID else { continue }
            pushes += 1
            connection.send("<iq type='set' id='roster-push-\(pushes)' to='\(XMLEscaping.attribute(jid))'><query xmlns='\(XMPPNamespace.roster)'>\(shown)</query></iq>")
        }
    }

    /// Changes `userId`'s item for `contact` with `change`; saved (and pushed) when it changed.
    /// Returns whether it did.
    @discardableResult
    private func update(_ userId: Int, _ contact: Int, _ change: (inout RosterItem) -> Void) -> Bool {
        let before = item(of: userId, contact) ?? RosterItem(contactId: contact)
        var after = before
        change(&after)
        guard after != before else { return false }
        save(after, of: userId, wasListed: before.listed)
        return true
    }

    // MARK: subscription presences

    /// A `<presence type='subscribe|subscribed|unsubscribe|unsubscribed' to='{user}'/>`: true
    /// when it was one (handled here), false for any other presence.
    func route(_ stanza: XMPPElement, from connection: XMPPClientConnection, sender: Int) -> Bool {
        guard let type = stanza[attribute: "type"], ["subscribe", "subscribed", "unsubscribe", "unsubscribed"].contains(type),
              let to = stanza[attribute: "to"], let address = XMPPAddress(to),
              let contact = address.userId(applicationId: chat.applicationId, domain: chat.name) else { return false }
        guard contact != sender, records.store != nil else { return true }
        guard records.storage({ try $0.userExists(contact) }) == true else {
            connection.send("<presence type='error' from='\(XMLEscaping.attribute(chat.userJID(contact)))'>"
                            + StanzaError(condition: .itemNotFound).xml + "</presence>")
            return true
        }
        switch type {
        case "subscribe": subscribe(sender, to: contact, from: connection)
        case "subscribed": subscribed(sender, to: contact)
        case "unsubscribe": unsubscribe(sender, from: contact)
        default: unsubscribed(sender, to: contact)
        }
        return true
    }

    /// `<presence type='…' from='{from's bare JID}'/>` to each available resource of `to`.
    private func deliver(_ type: String, from: Int, to: Int) {
        for resource in (presence.available[to] ?? [:]).keys.sorted() {
            guard let connection = sessions[to]?[resource], let jid = connection.session.fullJID else { continue }
            connection.send("<presence from='\(XMLEscaping.attribute(chat.userJID(from)))' to='\(XMLEscaping.attribute(jid))' type='\(type)'/>")
        }
    }

    /// The user asks for the contact's presence (RFC 6121 §3.1): their item says `ask`; the
    /// contact hears the request now or when next available, unless they already let the user
    /// see it, when the server approves it for them.
    private func subscribe(_ user: Int, to contact: Int, from connection: XMPPClientConnection) {
        guard privacy.admitsSubscription(from: connection, sender: user, to: contact) else { return }
        update(user, contact) { item in
            item.listed = true
            if !item.subscription.receives { item.askOut = true }
        }
        if item(of: contact, user)?.subscription.sends == true { return approve(user, by: contact) }
        update(contact, user) { $0.pendingIn = true }
        deliver("subscribe", from: user, to: contact)
    }

    /// The contact approves the user's request (RFC 6121 §3.1.5); with none pending it is ignored.
    private func subscribed(_ contact: Int, to user: Int) {
        guard item(of: contact, user)?.pendingIn == true else { return }
        update(contact, user) { item in
            item.pendingIn = false
            item.listed = true
            item.subscription = RosterSubscription(receives: item.subscription.receives, sends: true)
        }
        approve(user, by: contact)
    }

    /// The user now receives the contact's presence: their item says so, they hear the approval
    /// and the contact's current presence.
    private func approve(_ user: Int, by contact: Int) {
        update(user, contact) { item in
            item.askOut = false
            item.listed = true
            item.subscription = RosterSubscription(receives: true, sends: item.subscription.sends)
        }
        deliver("subscribed", from: contact, to: user)
        presence.tellPresence(of: contact, to: user)
    }

    /// The user no longer wants the contact's presence, or withdraws a request (RFC 6121 §3.3).
    private func unsubscribe(_ user: Int, from contact: Int) {
        update(user, contact) { item in
            item.askOut = false
            item.subscription = RosterSubscription(receives: false, sends: item.subscription.sends)
        }
        let changed = update(contact, user) { item in
            item.pendingIn = false
            item.subscription = RosterSubscription(receives: item.subscription.receives, sends: false)
        }
        guard changed else { return }
        deliver("unsubscribe", from: user, to: contact)
        presence.tellUnavailable(of: contact, to: user)
    }

    /// The contact refuses a request or ends the user's subscription (RFC 6121 §3.2).
    private func unsubscribed(_ contact: Int, to user: Int) {
        update(contact, user) { item in
            item.pendingIn = false
            item.subscription = RosterSubscription(receives: item.subscription.receives, sends: false)
        }
        let changed = update(user, contact) { item in
            item.askOut = false
            item.subscription = RosterSubscription(receives: false, sends: item.subscription.sends)
        }
        guard changed else { return }
        deliver("unsubscribed", from: contact, to: user)
        presence.tellUnavailable(of: contact, to: user)
    }

    /// A session's first available presence: the requests still unanswered reach it (RFC 6121 §3.1.3).
    func deliverPendingRequests(to connection: XMPPClientConnection, userId: Int) {
        guard let jid = connection.session.fullJID else { return }
        for requester in records.find({ try $0.pendingSubscriptionRequests(to: userId) }) ?? [] {
            connection.send("<presence from='\(XMLEscaping.attribute(chat.userJID(requester)))' to='\(XMLEscaping.attribute(jid))' type='subscribe'/>")
        }
    }
}

@available(*, unavailable) extension RosterService: Sendable {}
