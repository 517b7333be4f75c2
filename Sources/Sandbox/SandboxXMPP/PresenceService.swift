// Presence between users who share a dialog, and XEP-0012 last activity (docs/protocol.md §7,
// "Presence and last activity"). The sandbox keeps no rosters: sharing a dialog stands in for a
// mutual subscription, as the SDKs' "who is online" needs.
import SandboxStorage
import SandboxXML

/// Each resource's broadcast presence, fanned out to the available resources of the users who
/// share a dialog with its user; a new available resource hears theirs (a probe's answer); the
/// time each user's last resource went away, for `jabber:iq:last`. Owned by the router; loop
/// thread only.
final class PresenceService {
    private let chat: ChatDomain
    private let sessions: BoundSessions
    private let records: StanzaStorage
    /// What last activity writes goes into the turn's transaction.
    private let turn: TurnCommit
    /// A group of more occupants than this shares no presence (a login would tell them all).
    private let maxGroupOccupants: Int
    /// Resources that sent available presence, by user: the children of that presence
    /// (`<show/>`, `<status/>`, `<priority/>`), serialized, as contacts receive them.
    private(set) var available: [Int: [String: String]] = [:]
    /// When each user's last available resource went away (Unix seconds), as stored.
    private var lastSeen: [Int: Double] = [:]
    /// Unix seconds now; tests set it to tell `seconds` exactly.
    var now: () -> Double

    init(chat: ChatDomain, sessions: BoundSessions, records: StanzaStorage, turn: TurnCommit, maxGroupOccupants: Int) {
        self.chat = chat
        self.sessions = sessions
        self.records = records
        self.turn = turn
        self.maxGroupOccupants = maxGroupOccupants
        now = records.now
    }

    // MARK: presence

    /// A presence without `to` (broadcast): available (no type) or unavailable; others are dropped.
    func broadcast(_ stanza: XMPPElement, from connection: XMPPClientConnection, sender: Int) {
        guard let resource = connection.session.resource else { return }
        switch stanza[attribute: "type"] {
        case nil:
            let payload = stanza.elements.filter { $0.name == "show" || $0.name == "status" || $0.name == "priority" }
                .map { $0.serialized(parentNamespace: XMPPNamespace.client) }.joined()
            let isNew = available[sender]?[resource] == nil
            available[sender, default: [:]][resource] = payload
            let contacts = self.contacts(of: sender)
            tell(contacts, "<presence from='\(XMLEscaping.attribute(chat.userJID(sender)))/\(XMLEscaping.attribute(resource))' to='", payload)
            if isNew { tellCurrentPresence(of: contacts, to: connection) }
        case "unavailable":
            resourceGone(userId: sender, resource: resource)
        default:
            break
        }
    }

    /// `userId`'s `resource` is unavailable (it said so, or its session ended): contacts hear
    /// it, and when it was the user's last, the time is kept for last activity.
    func resourceGone(userId: Int, resource: String) {
        guard available[userId]?.removeValue(forKey: resource) != nil else { return }
        let wasLast = available[userId]?.isEmpty ?? true
        if wasLast {
            available[userId] = nil
            let time = now()
            lastSeen[userId] = time
            turn.beginWriting()
            _ = records.storage { try $0.recordChatLastSeen(userId, at: time) }
        }
        tell(contacts(of: userId), "<presence from='\(XMLEscaping.attribute(chat.userJID(userId)))/\(XMLEscaping.attribute(resource))' type='unavailable' to='", "")
    }

    private func contacts(of userId: Int) -> Set<Int> {
        records.storage { try $0.presenceContacts(of: userId, maxGroupOccupants: self.maxGroupOccupants) } ?? []
    }

    /// `prefix` + each available contact resource's full JID + `'>` + payload + `</presence>`.
    private func tell(_ contacts: Set<Int>, _ prefix: String, _ payload: String) {
        for contact in contacts {
            guard let resources = available[contact], let bound = sessions[contact] else { continue }
            for resource in resources.keys {
                guard let connection = bound[resource], let jid = connection.session.fullJID else { continue }
                connection.send(prefix + XMLEscaping.attribute(jid) + (payload.isEmpty ? "'/>" : "'>" + payload + "</presence>"))
            }
        }
    }

    /// What a probe of each contact would answer (RFC 6121 §4.3.2), for a resource just available:
    /// the presence of every available resource of theirs. Offline contacts are not told.
    private func tellCurrentPresence(of contacts: Set<Int>, to connection: XMPPClientConnection) {
        guard let jid = connection.session.fullJID else { return }
        for contact in contacts.sorted() {
            for (resource, payload) in (available[contact] ?? [:]).sorted(by: { $0.key < $1.key }) {
                let from = "\(chat.userJID(contact))/\(resource)"
                connection.send("<presence from='\(XMLEscaping.attribute(from))' to='\(XMLEscaping.attribute(jid))'"
                                + (payload.isEmpty ? "/>" : ">" + payload + "</presence>"))
            }
        }
    }

    // MARK: last activity (XEP-0012)

    /// `<iq type='get' to='{user}'><query xmlns='jabber:iq:last'/></iq>`: `seconds='0'` while the
    /// user is online, else the seconds since their last resource went away; an unknown user is
    /// `service-unavailable`, one never seen `item-not-found`. Any user of the application may be
    /// asked about, as on the hosted service (QuickBlox's SDK suite asks about one it shares nothing with).
    func lastActivity(_ iq: XMPPElement, of userId: Int, from connection: XMPPClientConnection, sender: Int) {
        let seconds: Int
        if !(records.storage { try $0.userExists(userId) } ?? false) {
            return connection.send(iqError(iq, to: connection, StanzaError(condition: .serviceUnavailable)))
        } else if available[userId] != nil {
            seconds = 0
        } else if let time = lastSeen[userId] ?? records.find({ try $0.chatLastSeen(userId) }) {
            lastSeen[userId] = time
            seconds = max(0, Int((now() - time).rounded(.down)))
        } else {
            return connection.send(iqError(iq, to: connection, StanzaError(condition: .itemNotFound)))
        }
        connection.send(iqReply(iq, type: "result", to: connection)
                        + "<query xmlns='\(XMPPNamespace.lastActivity)' seconds='\(seconds)'/></iq>")
    }

    /// `<iq type='…' id='…' from='{the user asked about}' to='{asker}'>`.
    private func iqReply(_ iq: XMPPElement, type: String, to connection: XMPPClientConnection) -> String {
        var reply = "<iq type='\(type)' id='\(XMLEscaping.attribute(iq[attribute: "id"] ?? ""))'"
        if let from = iq[attribute: "to"] { reply += " from='\(XMLEscaping.attribute(from))'" }
        if let me = connection.session.fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        return reply + ">"
    }

    private func iqError(_ iq: XMPPElement, to connection: XMPPClientConnection, _ error: StanzaError) -> String {
        iqReply(iq, type: "error", to: connection) + "<query xmlns='\(XMPPNamespace.lastActivity)'/>" + error.xml + "</iq>"
    }
}

@available(*, unavailable) extension PresenceService: Sendable {}
