// Message and presence routing (docs/protocol.md §7): 1:1 chat to a user's resources (with
// carbons), group chat through MUC rooms `{appId}_{dialogId}@muc.{domain}`, chat markers and
// typing, system notifications (headlines), and storage of what is sent with
// `save_to_history=1` or by a plain XMPP client.

/// Routes stanzas between bound sessions and rooms. Owned by `XMPPServer`; loop thread only.
/// Storing happens synchronously inside `route`, so a later `<r/>` is only answered after it.
final class XMPPStanzaRouter {
    /// A connection joined to a room.
    private struct RoomSeat {
        let connection: XMPPClientConnection
        var nick: String
    }

    private unowned let server: XMPPServer
    private let store: ChatStore?
    /// Joined rooms: dialog id → user id → connection number → seat.
    private var rooms: [String: [Int: [Int: RoomSeat]]] = [:]
    private let now: () -> Double
    /// Ids for 1:1 messages that come without one.
    private var messageIds = ObjectIdGenerator()

    init(server: XMPPServer, store: ChatStore?, now: @escaping () -> Double = SandboxTime.now) {
        self.server = server
        self.store = store
        self.now = now
    }

    private var domain: String { server.domain }
    private var applicationId: Int { server.applicationId }
    private func userJID(_ id: Int) -> String { "\(id)-\(applicationId)@\(domain)" }
    private func roomJID(_ dialogId: String) -> String { "\(applicationId)_\(dialogId)@muc.\(domain)" }

    /// The user ids with a connection joined to the room of `dialogId` (tests read this).
    func joinedUsers(_ dialogId: String) -> Set<Int> { Set(rooms[dialogId].map { Array($0.keys) } ?? []) }

    /// Runs a storage call; a failure is logged and reported as nil.
    private func storage<T>(_ body: (ChatStore) throws -> T) -> T? {
        guard let store else { return nil }
        do { return try body(store) } catch {
            server.log.log(.error, "xmpp: storage failed: \(error)")
            return nil
        }
    }

    /// A storage lookup; a failure is logged and reported as nil.
    private func find<T>(_ body: (ChatStore) throws -> T?) -> T? {
        guard let store else { return nil }
        do { return try body(store) } catch {
            server.log.log(.error, "xmpp: storage failed: \(error)")
            return nil
        }
    }

    // MARK: entry points

    func route(_ stanza: XMPPElement, from connection: XMPPClientConnection) {
        guard let sender = connection.session.userId else { return }
        switch stanza.name {
        case "message": routeMessage(stanza, from: connection, sender: sender)
        case "presence": routePresence(stanza, from: connection, sender: sender)
        default: break
        }
    }

    /// A disconnecting (or replaced) connection leaves every room it joined.
    func leaveAllRooms(_ connection: XMPPClientConnection) {
        guard let userId = connection.session.userId else { return }
        for dialogId in rooms.keys where rooms[dialogId]?[userId]?[connection.number] != nil {
            leave(dialogId, userId: userId, connection: connection, notifySelf: false)
        }
    }

    // MARK: messages

    private func routeMessage(_ stanza: XMPPElement, from connection: XMPPClientConnection, sender: Int) {
        let type = stanza[attribute: "type"] ?? "normal"
        guard let to = stanza[attribute: "to"], let address = XMPPAddress(to) else {
            // Addressed to the sender's own account: nothing to do.
            return
        }
        if let recipient = address.userId(applicationId: applicationId, domain: domain) {
            direct(stanza, type: type, from: connection, sender: sender, recipient: recipient)
        } else if let dialogId = address.roomDialogId(applicationId: applicationId, domain: domain) {
            guard type != "error" else { return }
            guard type == "groupchat", address.resource == nil else {
                return bounce(stanza, to: connection, condition: "service-unavailable")
            }
            groupchat(stanza, from: connection, sender: sender, dialogId: dialogId)
        } else if type != "error" {
            bounce(stanza, to: connection, condition: "service-unavailable")
        }
    }

    /// `<message type='error'>` back to the sender (never for an error: no loops).
    private func bounce(_ stanza: XMPPElement, to connection: XMPPClientConnection, condition: String,
                        type: String = "cancel", text: String? = nil) {
        guard stanza[attribute: "type"] != "error" else { return }
        var reply = "<message type='error'"
        if let id = stanza[attribute: "id"] { reply += " id='\(XMLEscaping.attribute(id))'" }
        if let to = stanza[attribute: "to"] { reply += " from='\(XMLEscaping.attribute(to))'" }
        if let me = connection.session.fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        reply += "><error type='\(type)'><\(condition) xmlns='\(XMPPNamespace.stanzaErrors)'/>"
        if let text { reply += "<text xmlns='\(XMPPNamespace.stanzaErrors)'>\(XMLEscaping.text(text))</text>" }
        reply += "</error></message>"
        connection.send(reply)
    }

    private static func extraParams(_ stanza: XMPPElement) -> XMPPElement? { stanza.child("extraParams") }

    private static func isSaved(_ stanza: XMPPElement) -> Bool {
        extraParams(stanza)?.child("save_to_history")?.text.trimmingCharacters(" ") == "1"
    }

    /// Attachments and custom keys of `extraParams`, as stored.
    private static func content(of stanza: XMPPElement) -> (attachments: [MessageAttachment], custom: [(String, String)]) {
        guard let params = extraParams(stanza) else { return ([], []) }
        var attachments: [MessageAttachment] = []
        var custom: [(String, String)] = []
        for child in params.elements {
            switch child.name {
            case "attachment":
                let fields = child.attributes.map { ($0.name, $0.value) }
                if !fields.isEmpty { attachments.append(MessageAttachment(fields: fields)) }
            case "save_to_history", "dialog_id", "date_sent":
                break
            default:
                if !custom.contains(where: { $0.0 == child.name }) { custom.append((child.name, child.text)) }
            }
        }
        return (attachments, custom)
    }

    /// A copy for recipients: new `from`/`to`/`id`, with `dialog_id` and `date_sent` set in `extraParams`.
    private static func forwarded(_ stanza: XMPPElement, from: String, to: String, id: String?,
                                  dialogId: String?, dateSent: Int?) -> XMPPElement {
        var copy = stanza
        copy.attributes.removeAll { ["from", "to", "id"].contains($0.name) }
        copy.attributes.insert(XMPPElement.Attribute(name: "to", value: to), at: 0)
        copy.attributes.insert(XMPPElement.Attribute(name: "from", value: from), at: 0)
        if let id { copy.attributes.append(XMPPElement.Attribute(name: "id", value: id)) }
        guard dialogId != nil || dateSent != nil else { return copy }
        var params: XMPPElement
        var index: Int?
        if let found = copy.children.firstIndex(where: { if case .element(let e) = $0 { return e.name == "extraParams" } else { return false } }),
           case .element(let e) = copy.children[found] {
            params = e
            index = found
        } else {
            params = XMPPElement(name: "extraParams", namespace: XMPPNamespace.client)
        }
        func set(_ name: String, _ value: String) {
            let element = XMPPElement(name: name, namespace: params.namespace, children: [.text(value)])
            if let i = params.children.firstIndex(where: { if case .element(let e) = $0 { return e.name == name } else { return false } }) {
                params.children[i] = .element(element)
            } else {
                params.children.append(.element(element))
            }
        }
        if let dialogId { set("dialog_id", dialogId) }
        if let dateSent { set("date_sent", String(dateSent)) }
        if let index { copy.children[index] = .element(params) } else { copy.children.append(.element(params)) }
        return copy
    }

    private func sendToUser(_ userId: Int, _ element: XMPPElement) {
        let text = element.serialized(parentNamespace: XMPPNamespace.client)
        for connection in server.boundSessions[userId]?.values.map({ $0 }) ?? [] { connection.send(text) }
    }

    private func marker(in stanza: XMPPElement) -> XMPPElement? {
        stanza.elements.first { $0.namespace == XMPPNamespace.chatMarkers && ($0.name == "received" || $0.name == "displayed") }
    }

    private func direct(_ stanza: XMPPElement, type: String, from connection: XMPPClientConnection, sender: Int, recipient: Int) {
        guard let senderJID = connection.session.fullJID else { return }
        if type == "error" {
            // Errors go to the addressee as they are, or nowhere.
            return sendToUser(recipient, Self.forwarded(stanza, from: senderJID, to: stanza[attribute: "to"] ?? userJID(recipient),
                                                        id: stanza[attribute: "id"], dialogId: nil, dateSent: nil))
        }
        let exists: Bool = store == nil ? server.boundSessions[recipient] != nil : (storage { try $0.userExists(recipient) } ?? false)
        guard exists else { return bounce(stanza, to: connection, condition: "service-unavailable") }
        let to = stanza[attribute: "to"] ?? userJID(recipient)
        if type == "headline" { return headline(stanza, from: senderJID, to: to, recipient: recipient) }
        let body = stanza.child("body")?.text
        guard let body else {
            // Markers, typing and other content-free messages: recorded (markers) and passed on.
            if let marker = marker(in: stanza), let messageId = marker[attribute: "id"] {
                record(marker.name, of: messageId, by: sender, to: recipient)
            }
            let copy = Self.forwarded(stanza, from: senderJID, to: to, id: stanza[attribute: "id"], dialogId: nil, dateSent: nil)
            deliverDirect(copy, to: recipient)
            return carbons(of: copy, user: sender, except: connection)
        }
        guard body.utf8.count <= ChatStore.maxMessageBytes else {
            return bounce(stanza, to: connection, condition: "not-acceptable", type: "modify",
                          text: "The message body is longer than \(ChatStore.maxMessageBytes) bytes")
        }
        var id = stanza[attribute: "id"]
        var dateSent = Int(now().rounded(.down))
        let given = Self.extraParams(stanza)?.child("dialog_id")?.text.trimmingCharacters(" ")
        var dialog = privateDialog(between: sender, recipient, preferring: given)
        if (Self.isSaved(stanza) || Self.isPlainChat(stanza)) && recipient != sender && store != nil {
            if let id, find({ try $0.senderOfMessage(id: id) }) == sender {
                // A resend (after a reconnect) of what is already stored and was delivered then.
                server.log.log(.debug, "xmpp: message \(id) from \(sender) already stored")
                return
            }
            if dialog == nil {
                dialog = storage { try $0.createDialog(type: .privateChat, name: nil, photo: nil, ownerId: sender, occupants: [recipient]) }
            }
            guard let dialog else { return bounce(stanza, to: connection, condition: "internal-server-error", type: "wait") }
            let (attachments, custom) = Self.content(of: stanza)
            let markable = stanza.child("markable", namespace: XMPPNamespace.chatMarkers) != nil
            guard let stored = storage({
                try $0.insertMessage(NewMessage(id: id, dialogId: dialog.id, body: body, senderId: sender,
                                                attachments: attachments, markable: markable, custom: custom), in: dialog)
            }) else { return bounce(stanza, to: connection, condition: "internal-server-error", type: "wait") }
            id = stored.id
            dateSent = stored.dateSent
        }
        if type == "chat" && (id ?? "").isEmpty {
            // Every 1:1 chat reaches its recipient with an id, so it can be filed and marked.
            id = messageIds.next(at: now())
        }
        // Build the copy only for someone online to receive it (the recipient,
        // or the sender's other resources): offline, storing was all there was to do.
        guard server.boundSessions[recipient] != nil || (server.boundSessions[sender]?.count ?? 0) > 1 else { return }
        let copy = Self.forwarded(stanza, from: senderJID, to: to, id: id, dialogId: dialog?.id ?? given, dateSent: dateSent)
        deliverDirect(copy, to: recipient)
        carbons(of: copy, user: sender, except: connection)
    }

    /// A chat from a plain XMPP client, which knows nothing of QuickBlox: no
    /// `extraParams` at all. It is kept like an SDK's saved message, under the
    /// pair's private dialog, created if needed (docs/protocol.md §7).
    private static func isPlainChat(_ stanza: XMPPElement) -> Bool {
        stanza[attribute: "type"] == "chat" && extraParams(stanza) == nil
    }

    /// A QuickBlox system notification (`type="headline"`, docs/protocol.md §7): passed
    /// on as it is, with the sender's full JID; never stored, no carbons.
    private func headline(_ stanza: XMPPElement, from senderJID: String, to: String, recipient: Int) {
        deliverDirect(Self.forwarded(stanza, from: senderJID, to: to, id: stanza[attribute: "id"], dialogId: nil, dateSent: nil),
                      to: recipient)
    }

    /// Addressed to a bound full JID, only that resource gets it and the user's other
    /// carbons-enabled resources a `received` copy (RFC 6121 §8.5.3, XEP-0280); to the
    /// bare JID (or a resource that is gone), every resource of the user.
    private func deliverDirect(_ element: XMPPElement, to recipient: Int) {
        guard let resource = element[attribute: "to"].flatMap(XMPPAddress.init)?.resource,
              let target = server.boundSessions[recipient]?[resource] else {
            return sendToUser(recipient, element)
        }
        target.send(element.serialized(parentNamespace: XMPPNamespace.client))
        carbons(of: element, user: recipient, except: target, direction: "received")
    }

    /// XEP-0280 copies for `user`'s other resources that enabled carbons: `sent` for what
    /// the user sent (so another chatctl of the same user sees it), `received` for what
    /// reached one resource only.
    private func carbons(of message: XMPPElement, user: Int, except origin: XMPPClientConnection, direction: String = "sent") {
        guard message[attribute: "type"] == "chat",
              message.child("private", namespace: XMPPNamespace.carbons) == nil,
              message.child("no-copy", namespace: XMPPNamespace.hints) == nil else { return }
        let targets = (server.boundSessions[user]?.values.map { $0 } ?? []).filter { $0 !== origin && $0.session.carbonsEnabled }
        guard !targets.isEmpty else { return } // the usual case: serialise nothing
        let inner = message.serialized(parentNamespace: XMPPNamespace.forward)
        for connection in targets {
            guard let jid = connection.session.fullJID else { continue }
            connection.send("<message from='\(userJID(user))' to='\(XMLEscaping.attribute(jid))' type='chat'><\(direction) xmlns='\(XMPPNamespace.carbons)'><forwarded xmlns='\(XMPPNamespace.forward)'>\(inner)</forwarded></\(direction)></message>")
        }
    }

    /// The private dialog of the two users: `preferring` when it is theirs, else any.
    private func privateDialog(between a: Int, _ b: Int, preferring id: String?) -> DialogRecord? {
        if let id, let dialog = find({ try $0.dialog(id: id, viewer: nil) }), dialog.type == .privateChat,
           Set(dialog.occupantIds) == Set([a, b]) {
            return dialog
        }
        return find { try $0.privateDialog(between: a, b, viewer: nil) }
    }

    /// A `received` or `displayed` marker from `userId` to `recipient` for a stored message of a
    /// dialog they are in: it counts when it goes to the message's sender (docs/protocol.md §7).
    private func record(_ marker: String, of messageId: String, by userId: Int, to recipient: Int) {
        guard let message = find({ try $0.message(id: messageId) }), message.senderId != userId, message.senderId == recipient,
              let dialog = find({ try $0.dialog(id: message.dialogId, viewer: nil) }), dialog.admits(userId) else { return }
        if marker == "displayed" {
            _ = storage { try $0.markRead(dialogId: dialog.id, ids: [messageId], userId: userId) }
        } else {
            _ = storage { try $0.markDelivered(dialogId: dialog.id, ids: [messageId], userId: userId) }
        }
    }

    private func groupchat(_ stanza: XMPPElement, from connection: XMPPClientConnection, sender: Int, dialogId: String) {
        guard let dialog = find({ try $0.dialog(id: dialogId, viewer: nil) }), dialog.type.isGroup else {
            return bounce(stanza, to: connection, condition: "service-unavailable")
        }
        guard dialog.admits(sender) else { return bounce(stanza, to: connection, condition: "forbidden", type: "auth") }
        guard rooms[dialogId]?[sender]?[connection.number] != nil else {
            return bounce(stanza, to: connection, condition: "not-acceptable", type: "modify", text: "Join the room first")
        }
        let from = roomJID(dialogId) + "/\(sender)"
        guard let body = stanza.child("body")?.text else {
            // Typing and the like: to the other occupants only.
            return fanOut(dialog, except: sender) { to in
                Self.forwarded(stanza, from: from, to: to, id: stanza[attribute: "id"], dialogId: nil, dateSent: nil)
            }
        }
        guard body.utf8.count <= ChatStore.maxMessageBytes else {
            return bounce(stanza, to: connection, condition: "not-acceptable", type: "modify",
                          text: "The message body is longer than \(ChatStore.maxMessageBytes) bytes")
        }
        var id = stanza[attribute: "id"]
        var dateSent = Int(now().rounded(.down))
        if Self.isSaved(stanza) {
            if let id, find({ try $0.senderOfMessage(id: id) }) == sender {
                server.log.log(.debug, "xmpp: group message \(id) from \(sender) already stored")
                return
            }
            let (attachments, custom) = Self.content(of: stanza)
            let markable = stanza.child("markable", namespace: XMPPNamespace.chatMarkers) != nil
            guard let stored = storage({
                try $0.insertMessage(NewMessage(id: id, dialogId: dialogId, body: body, senderId: sender,
                                                attachments: attachments, markable: markable, custom: custom), in: dialog)
            }) else { return bounce(stanza, to: connection, condition: "internal-server-error", type: "wait") }
            id = stored.id
            dateSent = stored.dateSent
        }
        // MUC reflection: the sender's joined resources get it too.
        fanOut(dialog, except: nil) { to in
            Self.forwarded(stanza, from: from, to: to, id: id, dialogId: dialogId, dateSent: dateSent)
        }
    }

    /// Sends `make(fullJID)` to every joined connection of the room, but those of `except` and
    /// of users no longer in the dialog (pulled after they joined).
    private func fanOut(_ dialog: DialogRecord, except: Int?, _ make: (String) -> XMPPElement) {
        for (userId, seats) in rooms[dialog.id] ?? [:] where userId != except && dialog.admits(userId) {
            for seat in seats.values {
                guard let jid = seat.connection.session.fullJID else { continue }
                seat.connection.send(make(jid).serialized(parentNamespace: XMPPNamespace.client))
            }
        }
    }

    // MARK: live delivery of REST messages (`send_to_chat=1`)

    func deliver(_ message: MessageRecord, in dialog: DialogRecord) {
        var params = "<save_to_history>1</save_to_history><dialog_id>\(XMLEscaping.text(dialog.id))</dialog_id><date_sent>\(message.dateSent)</date_sent>"
        for (key, value) in message.custom where XMLEscaping.isName(key) {
            params += "<\(key)>\(XMLEscaping.text(value))</\(key)>"
        }
        params += message.attachments.map(\.xml).joined()
        let payload = "<body>\(XMLEscaping.text(message.body))</body><extraParams xmlns='\(XMPPNamespace.client)'>\(params)</extraParams>"
            + (message.markable ? "<markable xmlns='\(XMPPNamespace.chatMarkers)'/>" : "")
        if dialog.type.isGroup {
            let from = roomJID(dialog.id) + "/\(message.senderId)"
            for (userId, seats) in rooms[dialog.id] ?? [:] where userId != message.senderId && dialog.admits(userId) {
                for seat in seats.values {
                    guard let jid = seat.connection.session.fullJID else { continue }
                    seat.connection.send("<message type='groupchat' from='\(XMLEscaping.attribute(from))' to='\(XMLEscaping.attribute(jid))' id='\(message.id)'>\(payload)</message>")
                }
            }
        } else if let recipient = dialog.peer(of: message.senderId) {
            let text = "<message type='chat' from='\(userJID(message.senderId))' to='\(userJID(recipient))' id='\(message.id)'>\(payload)</message>"
            for connection in server.boundSessions[recipient]?.values.map({ $0 }) ?? [] { connection.send(text) }
        }
    }

    // MARK: presence and rooms

    private func routePresence(_ stanza: XMPPElement, from connection: XMPPClientConnection, sender: Int) {
        // Presence to users (no rosters in the sandbox) and broadcast presence are accepted and dropped.
        guard let to = stanza[attribute: "to"], let address = XMPPAddress(to),
              let dialogId = address.roomDialogId(applicationId: applicationId, domain: domain) else { return }
        let type = stanza[attribute: "type"]
        guard let nick = address.resource, !nick.isEmpty else {
            if type == nil { presenceError(stanza, to: connection, condition: "jid-malformed", type: "modify") }
            return
        }
        switch type {
        case nil: join(dialogId, nick: nick, stanza: stanza, connection: connection, userId: sender)
        case "unavailable": leave(dialogId, userId: sender, connection: connection, notifySelf: true, nick: nick)
        default: break
        }
    }

    private func presenceError(_ stanza: XMPPElement, to connection: XMPPClientConnection, condition: String, type: String) {
        var reply = "<presence type='error'"
        if let to = stanza[attribute: "to"] { reply += " from='\(XMLEscaping.attribute(to))'" }
        if let me = connection.session.fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        if let id = stanza[attribute: "id"] { reply += " id='\(XMLEscaping.attribute(id))'" }
        reply += "><x xmlns='\(XMPPNamespace.muc)'/><error type='\(type)'><\(condition) xmlns='\(XMPPNamespace.stanzaErrors)'/></error></presence>"
        connection.send(reply)
    }

    private func occupantPresence(room: String, nick: String, to: String, unavailable: Bool = false,
                                  isSelf: Bool = false, jid: String? = nil, id: String? = nil) -> String {
        var text = "<presence from='\(XMLEscaping.attribute(room + "/" + nick))' to='\(XMLEscaping.attribute(to))'"
        if unavailable { text += " type='unavailable'" }
        if let id { text += " id='\(XMLEscaping.attribute(id))'" }
        text += "><x xmlns='\(XMPPNamespace.mucUser)'><item affiliation='member' role='\(unavailable ? "none" : "participant")'"
        if let jid { text += " jid='\(XMLEscaping.attribute(jid))'" }
        text += "/>"
        if isSelf { text += "<status code='110'/>" }
        return text + "</x></presence>"
    }

    private func join(_ dialogId: String, nick: String, stanza: XMPPElement, connection: XMPPClientConnection, userId: Int) {
        guard let me = connection.session.fullJID else { return }
        guard let dialog = find({ try $0.dialog(id: dialogId, viewer: nil) }), dialog.type.isGroup else {
            return presenceError(stanza, to: connection, condition: "item-not-found", type: "cancel")
        }
        guard dialog.admits(userId) else {
            return presenceError(stanza, to: connection, condition: "registration-required", type: "auth")
        }
        let room = roomJID(dialogId)
        let occupants = rooms[dialogId] ?? [:]
        let isNewOccupant = occupants[userId]?.isEmpty ?? true
        // Who is there, then (for a user's first connection) tell them about the newcomer.
        for (other, seats) in occupants where other != userId && !seats.isEmpty {
            connection.send(occupantPresence(room: room, nick: String(other), to: me))
        }
        if isNewOccupant {
            for (other, seats) in occupants where other != userId {
                for seat in seats.values {
                    guard let jid = seat.connection.session.fullJID else { continue }
                    seat.connection.send(occupantPresence(room: room, nick: String(userId), to: jid))
                }
            }
        }
        rooms[dialogId, default: [:]][userId, default: [:]][connection.number] = RoomSeat(connection: connection, nick: nick)
        connection.send(occupantPresence(room: room, nick: nick, to: me, isSelf: true, jid: me, id: stanza[attribute: "id"]))
    }

    private func leave(_ dialogId: String, userId: Int, connection: XMPPClientConnection, notifySelf: Bool, nick: String? = nil) {
        let seat = rooms[dialogId]?[userId]?.removeValue(forKey: connection.number)
        if rooms[dialogId]?[userId]?.isEmpty == true { rooms[dialogId]?[userId] = nil }
        if rooms[dialogId]?.isEmpty == true { rooms[dialogId] = nil }
        let room = roomJID(dialogId)
        if notifySelf, let me = connection.session.fullJID {
            connection.send(occupantPresence(room: room, nick: seat?.nick ?? nick ?? String(userId), to: me,
                                             unavailable: true, isSelf: true))
        }
        guard seat != nil, rooms[dialogId]?[userId] == nil else { return }
        for (_, seats) in rooms[dialogId] ?? [:] {
            for other in seats.values {
                guard let jid = other.connection.session.fullJID else { continue }
                other.connection.send(occupantPresence(room: room, nick: String(userId), to: jid, unavailable: true))
            }
        }
    }
}

@available(*, unavailable) extension XMPPStanzaRouter: Sendable {}
