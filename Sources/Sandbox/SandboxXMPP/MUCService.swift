// Group dialogs as MUC rooms (XEP-0045, docs/protocol.md §7 "Group dialogs"): joining (the other
// occupants, our own presence, history, the subject), presence changes, leaving, group chat,
// and the MUC service's answers to IQs (service discovery, self-ping).
//
// Rooms are persistent, members-only (a public group is open to everyone), non-anonymous and
// unmoderated: every occupant is a participant whose nick is its user id, affiliated as the
// dialog's owner, a member (an occupant of the dialog) or none (a visitor of a public group).
import SandboxClock
import SandboxStorage
import SandboxXML

/// The MUC service on `muc.{domain}`: who sits in which room, and everything said to a room or
/// to the service. The router hands it group chat, presence and IQs, and shares its storage
/// and ids with it. Loop thread only.
final class MUCService {
    /// A connection joined to a room. Its nick in the room is always its user id.
    final class RoomSeat {
        let connection: XMPPClientConnection
        /// `<show/>` and `<status/>` of its last presence to the room, passed on to the others.
        var presenceDetails: [XMPPElement] { didSet { shownPresence = nil } }
        /// Its presence as the other occupants receive it, but for `to`, and the affiliation it
        /// was written with: a join into a room of a thousand sends a thousand of these.
        var shownPresence: (affiliation: String, stanza: AddressedStanza)?

        init(connection: XMPPClientConnection, presenceDetails: [XMPPElement] = []) {
            self.connection = connection
            self.presenceDetails = presenceDetails
        }
    }

    private let chat: ChatDomain
    private let records: StanzaStorage
    /// Joined rooms: dialog id → user id → connection number → seat.
    private(set) var rooms: [String: [Int: [Int: RoomSeat]]] = [:]

    init(chat: ChatDomain, records: StanzaStorage) {
        self.chat = chat
        self.records = records
    }

    private var applicationId: Int { chat.applicationId }
    private var domain: String { chat.name }
    private func roomJID(_ dialogId: String) -> String { chat.roomJID(dialogId) }
    /// The service's own address.
    private var serviceDomain: String { chat.mucService }

    /// The user ids with a connection joined to the room of `dialogId` (tests read this).
    func joinedUsers(_ dialogId: String) -> Set<Int> { Set(rooms[dialogId].map { Array($0.keys) } ?? []) }

    /// Status codes of XEP-0045 §15.6 the room sends.
    private enum Status {
        static let nonAnonymous = 100
        static let selfPresence = 110
        /// Removed from the room (banned, in XEP-0045's words): how QuickBlox marks a kick.
        static let removed = 301
        static let nickChanged = 210
    }

    /// A disconnecting (or replaced) connection leaves every room it joined.
    func leaveAllRooms(_ connection: XMPPClientConnection) {
        guard let userId = connection.session.userId else { return }
        for dialogId in rooms.keys where rooms[dialogId]?[userId]?[connection.number] != nil {
            leave(dialogId, userId: userId, connection: connection, notifySelf: false)
        }
    }

    /// Gives `connection`'s seats in every room to `successor` (a resumed stream, XEP-0198):
    /// nobody sees it leave or join.
    func moveSeats(of connection: XMPPClientConnection, to successor: XMPPClientConnection) {
        guard let userId = connection.session.userId else { return }
        for dialogId in rooms.keys {
            guard let seat = rooms[dialogId]?[userId]?.removeValue(forKey: connection.number) else { continue }
            rooms[dialogId]?[userId]?[successor.number] = RoomSeat(connection: successor, presenceDetails: seat.presenceDetails)
        }
    }

    // MARK: presence

    func routePresence(_ stanza: XMPPElement, from connection: XMPPClientConnection, sender: Int) {
        // Presence to users (no rosters in the sandbox) is accepted and dropped; broadcast presence is `PresenceService`'s.
        guard let to = stanza[attribute: "to"], let address = XMPPAddress(to) else { return }
        let type = stanza[attribute: "type"]
        guard let dialogId = address.roomDialogId(applicationId: applicationId, domain: domain) else {
            // A join of a room on the service that no dialog of this application could be (another
            // application's, a mistyped name) is refused as an unknown dialog's is: the joiner waits for an answer.
            if type == nil, address.domain == serviceDomain, address.local != nil {
                presenceError(stanza, to: connection, Self.unknownRoom)
            }
            return
        }
        guard let nick = address.resource, !nick.isEmpty else {
            if type == nil { presenceError(stanza, to: connection, StanzaError(condition: .jidMalformed, type: .modify)) }
            return
        }
        switch type {
        case nil: join(dialogId, nick: nick, stanza: stanza, connection: connection, userId: sender)
        case "unavailable": leave(dialogId, userId: sender, connection: connection, notifySelf: true)
        default: break
        }
    }

    /// A refused join: the condition says why, and the legacy code is 500 whatever the reason, as
    /// the hosted service answers and QuickBlox's SDK suite expects of an unknown dialog and of a
    /// non-occupant alike (docs/protocol.md §7 "Group dialogs").
    private static func joinRefused(_ condition: StanzaError.Condition, _ type: StanzaError.ErrorType, _ text: String) -> StanzaError {
        StanzaError(condition: condition, type: type, text: text, legacyCode: 500)
    }

    private static let unknownRoom = joinRefused(.itemNotFound, .cancel, "No such dialog")

    private func presenceError(_ stanza: XMPPElement, to connection: XMPPClientConnection, _ error: StanzaError) {
        var reply = "<presence type='error'"
        if let to = stanza[attribute: "to"] { reply += " from='\(XMLEscaping.attribute(to))'" }
        if let me = connection.session.fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        if let id = stanza[attribute: "id"] { reply += " id='\(XMLEscaping.attribute(id))'" }
        reply += "><x xmlns='\(XMPPNamespace.muc)'/>" + error.xml + "</presence>"
        connection.send(reply)
    }

    private func affiliation(of userId: Int, in dialog: DialogRecord) -> String {
        if userId == dialog.ownerId { return "owner" }
        return dialog.occupantIds.contains(userId) ? "member" : "none"
    }

    /// `affiliation(of:in:)` with the dialog's occupants as a set, for many users at once.
    private func affiliation(of userId: Int, in dialog: DialogRecord, members: Set<Int>) -> String {
        if userId == dialog.ownerId { return "owner" }
        return members.contains(userId) ? "member" : "none"
    }

    /// `seat`'s presence as the room's other occupants receive it (user `userId`, affiliated as
    /// `affiliation`), written once and kept until its details or affiliation change.
    private func shownPresence(of seat: RoomSeat, userId: Int, room: String, affiliation: String) -> AddressedStanza {
        if let shown = seat.shownPresence, shown.affiliation == affiliation { return shown.stanza }
        let stanza = AddressedStanza(occupantPresence(room: room, userId: userId, to: AddressedStanza.gap, affiliation: affiliation,
                                                      jid: seat.connection.session.fullJID, details: seat.presenceDetails))
        seat.shownPresence = (affiliation, stanza)
        return stanza
    }

    /// The presence of occupant `userId` (nick = user id) as `to` receives it, with its real JID
    /// (the rooms are non-anonymous) and `details` (`<show/>`, `<status/>`) from its own presence.
    private func occupantPresence(room: String, userId: Int, to: String, affiliation: String, jid: String?,
                                  unavailable: Bool = false, statuses: [Int] = [], id: String? = nil,
                                  details: [XMPPElement] = []) -> String {
        var text = "<presence from='\(XMLEscaping.attribute(room + "/" + String(userId)))' to='\(XMLEscaping.attribute(to))'"
        if unavailable { text += " type='unavailable'" }
        if let id { text += " id='\(XMLEscaping.attribute(id))'" }
        text += ">" + details.map { $0.serialized(parentNamespace: XMPPNamespace.client) }.joined()
        text += "<x xmlns='\(XMPPNamespace.mucUser)'><item affiliation='\(affiliation)' role='\(unavailable ? "none" : "participant")'"
        if let jid { text += " jid='\(XMLEscaping.attribute(jid))'" }
        text += "/>" + statuses.map { "<status code='\($0)'/>" }.joined()
        return text + "</x></presence>"
    }

    /// What of a presence the room passes on: its `<show/>` and `<status/>`.
    private static func presenceDetails(_ stanza: XMPPElement) -> [XMPPElement] {
        stanza.elements.filter { $0.namespace == XMPPNamespace.client && ($0.name == "show" || $0.name == "status") }
    }

    /// XEP-0045 §7.2: the other occupants' presence, then our own (status 110), then the history
    /// asked for, then the subject. The nick is always the user id (status 210 when another was
    /// asked for). A presence from a connection already joined is a change of its presence.
    private func join(_ dialogId: String, nick: String, stanza: XMPPElement, connection: XMPPClientConnection, userId: Int) {
        guard let me = connection.session.fullJID else { return }
        guard let dialog = records.find({ try $0.routingDialog(id: dialogId) }), dialog.type.isGroup else {
            return presenceError(stanza, to: connection, Self.unknownRoom)
        }
        guard dialog.admits(userId) else {
            return presenceError(stanza, to: connection, Self.joinRefused(.registrationRequired, .auth, "You are not an occupant of this dialog"))
        }
        let room = roomJID(dialogId)
        let details = Self.presenceDetails(stanza)
        let mine = affiliation(of: userId, in: dialog)
        // 110 first: QuickBlox's SDKs read only the first <status/> of a join's answer.
        var selfStatuses = [Status.selfPresence, Status.nonAnonymous]
        if nick != String(userId) { selfStatuses.append(Status.nickChanged) }

        if rooms[dialogId]?[userId]?[connection.number] != nil {
            rooms[dialogId]?[userId]?[connection.number]?.presenceDetails = details
            broadcastPresence(of: userId, in: dialog, jid: me, details: details)
            return connection.send(occupantPresence(room: room, userId: userId, to: me, affiliation: mine, jid: me,
                                                    statuses: selfStatuses, id: stanza[attribute: "id"], details: details))
        }
        let occupants = rooms[dialogId] ?? [:]
        let isNewOccupant = occupants[userId]?.isEmpty ?? true
        let members = Set(dialog.occupantIds)
        // Who is there (in user id order, so every join reads the same) ...
        for other in occupants.keys.sorted() where other != userId {
            guard let seat = occupants[other]?.values.min(by: { $0.connection.number < $1.connection.number }) else { continue }
            let presence = shownPresence(of: seat, userId: other, room: room, affiliation: affiliation(of: other, in: dialog, members: members))
            connection.send(presence.addressed(to: me))
        }
        let seat = RoomSeat(connection: connection, presenceDetails: details)
        // ... and, for a user's first connection, the others hear of the newcomer.
        if isNewOccupant {
            let presence = shownPresence(of: seat, userId: userId, room: room, affiliation: mine)
            for (other, seats) in occupants where other != userId {
                for otherSeat in seats.values {
                    guard let to = otherSeat.connection.session.fullJID else { continue }
                    otherSeat.connection.send(presence.addressed(to: to))
                }
            }
        }
        rooms[dialogId, default: [:]][userId, default: [:]][connection.number] = seat
        connection.send(occupantPresence(room: room, userId: userId, to: me, affiliation: mine, jid: me,
                                         statuses: selfStatuses, id: stanza[attribute: "id"], details: details))
        sendHistory(of: dialog, to: connection, as: userId, request: RoomHistoryRequest(join: stanza, now: records.now()))
        if !Self.isQuickBloxJoin(stanza) { sendSubject(of: dialog, to: me, connection: connection) }
    }

    /// A join by QuickBlox's SDKs, whose own handlers know it by the `:join` ending of its id. It
    /// gets no subject, as from the hosted service: the SDK hands every groupchat message, a
    /// subject too, to the app as a chat message from nobody (docs/protocol.md §7 "Group dialogs").
    static func isQuickBloxJoin(_ stanza: XMPPElement) -> Bool {
        stanza[attribute: "id"]?.hasSuffix(":join") ?? false
    }

    /// `userId`'s presence to every other user's joined connections (written once, addressed to each).
    private func broadcastPresence(of userId: Int, in dialog: DialogRecord, jid: String, details: [XMPPElement],
                                   unavailable: Bool = false) {
        let room = roomJID(dialog.id)
        let affiliation = self.affiliation(of: userId, in: dialog)
        var presence: AddressedStanza?
        for (other, seats) in rooms[dialog.id] ?? [:] where other != userId {
            for seat in seats.values {
                guard let to = seat.connection.session.fullJID else { continue }
                if presence == nil {
                    presence = AddressedStanza(occupantPresence(room: room, userId: userId, to: AddressedStanza.gap,
                                                                affiliation: affiliation, jid: jid, unavailable: unavailable,
                                                                details: details))
                }
                seat.connection.send(presence!.addressed(to: to))
            }
        }
    }

    /// XEP-0045 §7.2.15: the messages asked for, oldest first, as first sent, each with a
    /// `<delay/>` from the room saying when.
    private func sendHistory(of dialog: DialogRecord, to connection: XMPPClientConnection, as userId: Int, request: RoomHistoryRequest) {
        guard request.maxStanzas > 0, request.maxChars != 0, let me = connection.session.fullJID else { return }
        var filters: [RecordFilter] = []
        if let notBefore = request.notBefore, let field = ChatStore.messageFields["date_sent"] {
            filters.append(RecordFilter(field: field, op: "gte", values: [String(Int(notBefore.rounded(.up)))]))
        }
        guard let newestFirst = records.storage({
            try $0.messages(dialogId: dialog.id, filters: filters, descending: true, limit: request.maxStanzas, skip: 0, viewer: userId)
        }) else { return }
        let rendered = newestFirst.reversed().map { roomMessage($0, to: me, delayed: true) }
        for stanza in request.fitting(rendered) { connection.send(stanza) }
    }

    /// XEP-0045 §7.2.15: the subject ends a join; the dialog's name is the room's subject.
    private func sendSubject(of dialog: DialogRecord, to me: String, connection: XMPPClientConnection) {
        let subject = dialog.name.map { $0.isEmpty ? "<subject/>" : "<subject>\(XMLEscaping.text($0))</subject>" } ?? "<subject/>"
        connection.send("<message type='groupchat' from='\(XMLEscaping.attribute(roomJID(dialog.id)))' to='\(XMLEscaping.attribute(me))' id='\(records.messageIds.next(at: records.now()))'>\(subject)</message>")
    }

    func leave(_ dialogId: String, userId: Int, connection: XMPPClientConnection, notifySelf: Bool) {
        let seat = rooms[dialogId]?[userId]?.removeValue(forKey: connection.number)
        if rooms[dialogId]?[userId]?.isEmpty == true { rooms[dialogId]?[userId] = nil }
        if rooms[dialogId]?.isEmpty == true { rooms[dialogId] = nil }
        let room = roomJID(dialogId)
        let me = connection.session.fullJID
        // The dialog only names the affiliation; a dialog deleted meanwhile leaves it "none".
        let dialog = records.find { try $0.routingDialog(id: dialogId) }
        let affiliation = dialog.map { self.affiliation(of: userId, in: $0) } ?? "none"
        if notifySelf, let me {
            connection.send(occupantPresence(room: room, userId: userId, to: me, affiliation: affiliation, jid: me,
                                             unavailable: true, statuses: [Status.selfPresence]))
        }
        guard seat != nil, rooms[dialogId]?[userId] == nil else { return }
        for (_, seats) in rooms[dialogId] ?? [:] {
            for other in seats.values {
                guard let to = other.connection.session.fullJID else { continue }
                other.connection.send(occupantPresence(room: room, userId: userId, to: to, affiliation: affiliation, jid: me,
                                                       unavailable: true))
            }
        }
    }

    /// Users removed from the dialog while joined (XEP-0045 §9.1, as QuickBlox's SDKs read it):
    /// each of their connections gets its own unavailable presence with status 301 and the
    /// remover as `<actor/>`; the other occupants see them leave, as any leave reads.
    func removeOccupants(_ users: [Int], from dialogId: String, by actor: Int) {
        let room = roomJID(dialogId)
        let actorJID = chat.userJID(actor)
        for userId in users {
            guard let seats = rooms[dialogId]?.removeValue(forKey: userId) else { continue }
            for seat in seats.values {
                guard let me = seat.connection.session.fullJID else { continue }
                var text = "<presence from='\(XMLEscaping.attribute(room + "/" + String(userId)))' to='\(XMLEscaping.attribute(me))' type='unavailable'>"
                text += "<x xmlns='\(XMPPNamespace.mucUser)'><item affiliation='none' role='none'><actor jid='\(XMLEscaping.attribute(actorJID))'/></item>"
                text += "<status code='\(Status.removed)'/></x></presence>"
                seat.connection.send(text)
            }
            let jid = seats.values.first?.connection.session.fullJID
            for (_, others) in rooms[dialogId] ?? [:] {
                for other in others.values {
                    guard let to = other.connection.session.fullJID else { continue }
                    other.connection.send(occupantPresence(room: room, userId: userId, to: to, affiliation: "none", jid: jid, unavailable: true))
                }
            }
        }
        if rooms[dialogId]?.isEmpty == true { rooms[dialogId] = nil }
    }

    // MARK: group chat

    func groupchat(_ stanza: XMPPElement, from connection: XMPPClientConnection, sender: Int, dialogId: String) {
        guard let dialog = records.find({ try $0.routingDialog(id: dialogId) }), dialog.type.isGroup else {
            return XMPPStanzaRouter.bounce(stanza, to: connection, StanzaError(condition: .serviceUnavailable))
        }
        guard dialog.admits(sender) else { return XMPPStanzaRouter.bounce(stanza, to: connection, StanzaError(condition: .forbidden, type: .auth)) }
        guard rooms[dialogId]?[sender]?[connection.number] != nil else {
            return XMPPStanzaRouter.bounce(stanza, to: connection, StanzaError(condition: .notAcceptable, type: .modify, text: "Join the room first"))
        }
        let from = roomJID(dialogId) + "/\(sender)"
        guard let body = stanza.childText("body") else {
            // The subject is the dialog's name, changed over REST.
            if stanza.hasChild("subject") {
                return XMPPStanzaRouter.bounce(stanza, to: connection, StanzaError(condition: .forbidden, type: .auth,
                                                                         text: "The subject is the dialog's name: rename the dialog instead"))
            }
            // Typing and the like: to the other occupants only.
            let copy = AddressedStanza(XMPPStanzaRouter.forwarded(stanza, from: from, to: AddressedStanza.gap, id: stanza[attribute: "id"],
                                                      dialogId: nil, dateSent: nil).serialized(parentNamespace: XMPPNamespace.client))
            return fanOut(dialog, except: sender) { _ in copy }
        }
        guard body.utf8.count <= ChatStore.maxMessageBytes else {
            return XMPPStanzaRouter.bounce(stanza, to: connection, XMPPStanzaRouter.bodyTooLong)
        }
        var stored: MessageRecord?
        var dateSent = Int(records.now().rounded(.down))
        if (XMPPStanzaRouter.isSaved(stanza) || XMPPStanzaRouter.isPlain(stanza)) && records.store != nil {
            let (resend, idOwner) = records.isResend(stanza, by: sender, in: dialogId, body: body)
            if resend {
                records.log.log(.debug, "xmpp: group message \(XMPPStanzaRouter.senderId(of: stanza) ?? "") from \(sender) already stored")
                return
            }
            let (attachments, custom) = XMPPStanzaRouter.content(of: stanza)
            let markable = stanza.hasChild("markable", namespace: XMPPNamespace.chatMarkers)
            stored = records.storage({
                try $0.insertMessage(NewMessage(id: stanza[attribute: "id"], originId: XMPPStanzaRouter.senderId(of: stanza),
                                                dialogId: dialogId, body: body, senderId: sender, attachments: attachments,
                                                markable: markable, custom: custom,
                                                dateSent: XMPPStanzaRouter.clientDateSent(stanza)), in: dialog, idOwner: idOwner)
            })
            guard let stored else { return XMPPStanzaRouter.bounce(stanza, to: connection, records.notStoredError) }
            dateSent = stored.dateSent
        }
        let id = records.deliveryId(stored: stored?.id, stanza: stanza)
        let origin = XMPPStanzaRouter.senderId(of: stanza)
        let archived = stored.map { ($0.id, roomJID(dialogId)) }
        // MUC reflection: the sender's joined resources get it too, the sending one under the
        // id it gave (XEP-0045 §7.4, "stable ids"); everyone else under the stored ObjectId.
        func copy(id: String) -> AddressedStanza {
            AddressedStanza(XMPPStanzaRouter.forwarded(stanza, from: from, to: AddressedStanza.gap, id: id, dialogId: dialogId, dateSent: dateSent,
                                           originId: origin, stanzaId: archived).serialized(parentNamespace: XMPPNamespace.client))
        }
        let forEveryone = copy(id: id)
        let forTheSender = stanza[attribute: "id"].map { $0 == id ? forEveryone : copy(id: $0) } ?? forEveryone
        fanOut(dialog, except: nil) { seat in seat === connection ? forTheSender : forEveryone }
    }

    /// Sends `stanza(connection)`, addressed to each, to every joined connection of the room but
    /// those of `except` and of users no longer in the dialog (pulled after they joined).
    private func fanOut(_ dialog: DialogRecord, except: Int?, _ stanza: (XMPPClientConnection) -> AddressedStanza) {
        guard let occupants = rooms[dialog.id] else { return }
        // Once per message, not once per occupant: `admits` reads the occupant list.
        let members = dialog.type == .publicGroup ? nil : Set(dialog.occupantIds)
        for (userId, seats) in occupants where userId != except && members?.contains(userId) ?? true {
            for seat in seats.values {
                guard let jid = seat.connection.session.fullJID else { continue }
                seat.connection.send(stanza(seat.connection).addressed(to: jid))
            }
        }
    }

    /// A message stored through REST (`send_to_chat=1`) to the other occupants joined to its room.
    func deliver(_ message: MessageRecord, in dialog: DialogRecord) {
        for (userId, seats) in rooms[dialog.id] ?? [:] where userId != message.senderId && dialog.admits(userId) {
            for seat in seats.values {
                guard let jid = seat.connection.session.fullJID else { continue }
                seat.connection.send(roomMessage(message, to: jid))
            }
        }
    }

    /// A stored group message as the room sends it to `to`: from `{room}/{senderId}`, its
    /// `<stanza-id/>` by the room, and with `delayed` (history) a `<delay/>` of when it was sent.
    func roomMessage(_ message: MessageRecord, to: String, delayed: Bool = false) -> String {
        let room = roomJID(message.dialogId)
        var text = "<message type='groupchat' from='\(XMLEscaping.attribute(room + "/" + String(message.senderId)))' to='\(XMLEscaping.attribute(to))' id='\(message.id)'>"
        text += XMPPStanzaRouter.payload(of: message)
        if let origin = message.originId {
            text += "<origin-id xmlns='\(XMPPNamespace.stanzaIds)' id='\(XMLEscaping.attribute(origin))'/>"
        }
        text += "<stanza-id xmlns='\(XMPPNamespace.stanzaIds)' id='\(message.id)' by='\(XMLEscaping.attribute(room))'/>"
        if delayed {
            text += "<delay xmlns='\(XMPPNamespace.delay)' from='\(XMLEscaping.attribute(room))' stamp='\(SandboxTime.iso8601(Double(message.dateSent)))'/>"
        }
        return text + "</message>"
    }

    // MARK: IQs to the MUC service and its rooms

    /// An IQ to `muc.{domain}` or one of its rooms (the session answers the server's own).
    func routeIQ(_ iq: XMPPElement, from connection: XMPPClientConnection, sender: Int) {
        guard let type = IQType(of: iq), type == .get || type == .set, let to = iq[attribute: "to"], let address = XMPPAddress(to) else { return }
        let payload = iq.elements.count == 1 ? iq.elements[0] : nil
        guard let payload else { return connection.send(iqError(iq, to: connection, StanzaError(condition: .badRequest, type: .modify))) }
        if address.local == nil && address.resource == nil && address.domain == serviceDomain {
            return connection.send(serviceIQ(iq, type: type, payload: payload, to: connection, sender: sender))
        }
        guard let dialogId = address.roomDialogId(applicationId: applicationId, domain: domain) else {
            return connection.send(iqError(iq, to: connection, StanzaError(condition: .serviceUnavailable)))
        }
        connection.send(roomIQ(iq, type: type, payload: payload, dialogId: dialogId, nick: address.resource,
                               to: connection, sender: sender))
    }

    private func iqResult(_ iq: XMPPElement, to connection: XMPPClientConnection, payload: String = "") -> String {
        var reply = "<iq type='result' id='\(XMLEscaping.attribute(iq[attribute: "id"] ?? ""))'"
        if let from = iq[attribute: "to"] { reply += " from='\(XMLEscaping.attribute(from))'" }
        if let me = connection.session.fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        return payload.isEmpty ? reply + "/>" : reply + ">" + payload + "</iq>"
    }

    private func iqError(_ iq: XMPPElement, to connection: XMPPClientConnection, _ error: StanzaError) -> String {
        var reply = "<iq type='error' id='\(XMLEscaping.attribute(iq[attribute: "id"] ?? ""))'"
        if let from = iq[attribute: "to"] { reply += " from='\(XMLEscaping.attribute(from))'" }
        if let me = connection.session.fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        return reply + ">" + error.xml + "</iq>"
    }

    private static func features(_ names: [String]) -> String { names.map { "<feature var='\($0)'/>" }.joined() }

    /// The MUC service: disco#info (a text conference service), disco#items (the rooms the asker
    /// may enter: the groups they are in), ping.
    private func serviceIQ(_ iq: XMPPElement, type: IQType, payload: XMPPElement, to connection: XMPPClientConnection,
                           sender: Int) -> String {
        switch (type, payload.namespace, payload.name) {
        case (.get, XMPPNamespace.discoInfo, "query") where payload[attribute: "node"] == nil:
            let features = Self.features([XMPPNamespace.discoInfo, XMPPNamespace.discoItems, XMPPNamespace.muc,
                                          XMPPNamespace.mucStableId, XMPPNamespace.stanzaIds, XMPPNamespace.ping])
            return iqResult(iq, to: connection, payload: "<query xmlns='\(XMPPNamespace.discoInfo)'><identity category='conference' type='text' name='Group dialogs'/>\(features)</query>")
        case (.get, XMPPNamespace.discoItems, "query") where payload[attribute: "node"] == nil:
            let groups = records.storage { store in
                try store.dialogs(for: sender, filters: [], sort: RecordSort(column: "d.seq", descending: false),
                                  limit: Self.maxListedRooms, skip: 0).items.filter { $0.type.isGroup }
            } ?? []
            let items = groups.map { dialog in
                "<item jid='\(XMLEscaping.attribute(roomJID(dialog.id)))'" + (dialog.name.map { " name='\(XMLEscaping.attribute($0))'" } ?? "") + "/>"
            }.joined()
            return iqResult(iq, to: connection, payload: "<query xmlns='\(XMPPNamespace.discoItems)'>\(items)</query>")
        case (.get, XMPPNamespace.ping, "ping"):
            return iqResult(iq, to: connection)
        default:
            return iqError(iq, to: connection, StanzaError(condition: .serviceUnavailable))
        }
    }

    /// How many rooms the service lists at most.
    static let maxListedRooms = 100

    /// XEP-0045 §6.5: the room's occupants as items, one per user joined (in user id order), each
    /// its occupant JID `{room}/{userId}`, which QuickBlox's SDKs read as the room's online users.
    private func occupantItems(_ dialogId: String) -> String {
        let room = roomJID(dialogId)
        let items = (rooms[dialogId] ?? [:]).filter { !$0.value.isEmpty }.keys.sorted()
            .map { "<item jid='\(XMLEscaping.attribute(room + "/" + String($0)))' name='\($0)'/>" }
        return items.isEmpty ? "<query xmlns='\(XMPPNamespace.discoItems)'/>"
            : "<query xmlns='\(XMPPNamespace.discoItems)'>" + items.joined() + "</query>"
    }

    /// A room: disco#info (its identity, name and features) and disco#items (its occupants) for whoever
    /// may enter it; a room the asker may not enter is not found, as a hidden room is. A ping to
    /// our own occupant JID answers whether this connection is still joined (XEP-0410).
    private func roomIQ(_ iq: XMPPElement, type: IQType, payload: XMPPElement, dialogId: String, nick: String?,
                        to connection: XMPPClientConnection, sender: Int) -> String {
        guard let dialog = records.find({ try $0.routingDialog(id: dialogId) }), dialog.type.isGroup, dialog.admits(sender) else {
            return iqError(iq, to: connection, StanzaError(condition: .itemNotFound))
        }
        if let nick {
            guard type == .get, payload.namespace == XMPPNamespace.ping, payload.name == "ping" else {
                return iqError(iq, to: connection, StanzaError(condition: .serviceUnavailable))
            }
            let joined = nick == String(sender) && rooms[dialogId]?[sender]?[connection.number] != nil
            return joined ? iqResult(iq, to: connection) : iqError(iq, to: connection, StanzaError(condition: .notAcceptable, type: .modify))
        }
        switch (type, payload.namespace, payload.name) {
        case (.get, XMPPNamespace.discoInfo, "query") where payload[attribute: "node"] == nil:
            let access = dialog.type == .publicGroup ? ["muc_open", "muc_public"] : ["muc_membersonly", "muc_hidden"]
            let features = Self.features([XMPPNamespace.muc, XMPPNamespace.mucStableId, XMPPNamespace.stanzaIds,
                                          XMPPNamespace.discoInfo, XMPPNamespace.discoItems]
                                         + access + ["muc_persistent", "muc_nonanonymous", "muc_unmoderated", "muc_unsecured"])
            let name = dialog.name.map { " name='\(XMLEscaping.attribute($0))'" } ?? ""
            return iqResult(iq, to: connection, payload: "<query xmlns='\(XMPPNamespace.discoInfo)'><identity category='conference' type='text'\(name)/>\(features)</query>")
        case (.get, XMPPNamespace.discoItems, "query"):
            return iqResult(iq, to: connection, payload: occupantItems(dialogId))
        case (.get, XMPPNamespace.ping, "ping"):
            return iqResult(iq, to: connection)
        default:
            return iqError(iq, to: connection, StanzaError(condition: .serviceUnavailable))
        }
    }
}

@available(*, unavailable) extension MUCService: Sendable {}
