// Message and presence routing (docs/protocol.md §7): 1:1 chat to a user's resources (with
// carbons), chat markers and typing, system notifications (headlines), and storage of what is
// sent with `save_to_history=1` or by a plain XMPP client; group chat, presence and IQs to
// MUC rooms `{appId}_{dialogId}@muc.{domain}` go to the `MUCService`.
import SandboxLogging
import SandboxStorage
import SandboxXML

/// Routes stanzas between bound sessions, and to the MUC service. Owned by `XMPPServer`; loop
/// thread only. Storing happens synchronously inside `route`, so a later `<r/>` is only answered after it.
/// It shares with the MUC service and presence only what they all read (the domain, the bound
/// sessions, storage): none of them points back at another.
final class XMPPStanzaRouter {
    let chat: ChatDomain
    let sessions: BoundSessions
    let records: StanzaStorage
    /// Group dialogs as rooms.
    let muc: MUCService
    /// Users' presence and last activity.
    let presence: PresenceService

    init(chat: ChatDomain, sessions: BoundSessions, records: StanzaStorage, turn: TurnCommit, maxPresenceGroupOccupants: Int) {
        self.chat = chat
        self.sessions = sessions
        self.records = records
        muc = MUCService(chat: chat, records: records)
        presence = PresenceService(chat: chat, sessions: sessions, records: records, turn: turn,
                                   maxGroupOccupants: maxPresenceGroupOccupants)
    }

    /// The chat store, when there is one (tests make its commits fail).
    var store: ChatStore? { records.store }
    private var domain: String { chat.name }
    private var applicationId: Int { chat.applicationId }

    // MARK: entry points

    func route(_ stanza: XMPPElement, kind: StanzaKind, from connection: XMPPClientConnection) {
        guard let sender = connection.session.userId else { return }
        switch kind {
        case .message: routeMessage(stanza, from: connection, sender: sender)
        case .presence:
            if stanza[attribute: "to"] == nil { return presence.broadcast(stanza, from: connection, sender: sender) }
            muc.routePresence(stanza, from: connection, sender: sender)
        case .iq:
            // The session lets through IQs to the MUC service and last-activity queries to users.
            if let to = stanza[attribute: "to"], let user = XMPPAddress(to)?.userId(applicationId: applicationId, domain: domain) {
                return presence.lastActivity(stanza, of: user, from: connection, sender: sender)
            }
            muc.routeIQ(stanza, from: connection, sender: sender)
        }
    }

    // MARK: messages

    private func routeMessage(_ stanza: XMPPElement, from connection: XMPPClientConnection, sender: Int) {
        let type = MessageType(of: stanza)
        guard let to = stanza[attribute: "to"], let address = XMPPAddress(to) else {
            // Addressed to the sender's own account: nothing to do.
            return
        }
        if let recipient = address.userId(applicationId: applicationId, domain: domain) {
            direct(stanza, type: type, from: connection, sender: sender, recipient: recipient)
        } else if let dialogId = address.roomDialogId(applicationId: applicationId, domain: domain) {
            guard type != .error else { return }
            guard type == .groupchat, address.resource == nil else {
                return Self.bounce(stanza, to: connection, StanzaError(condition: .serviceUnavailable))
            }
            muc.groupchat(stanza, from: connection, sender: sender, dialogId: dialogId)
        } else if type != .error {
            Self.bounce(stanza, to: connection, StanzaError(condition: .serviceUnavailable))
        }
    }

    /// `<message type='error'>` back to the sender (never for an error: no loops).
    static func bounce(_ stanza: XMPPElement, to connection: XMPPClientConnection, _ error: StanzaError) {
        guard MessageType(of: stanza) != .error else { return }
        var reply = "<message type='error'"
        if let id = stanza[attribute: "id"] { reply += " id='\(XMLEscaping.attribute(id))'" }
        if let to = stanza[attribute: "to"] { reply += " from='\(XMLEscaping.attribute(to))'" }
        if let me = connection.session.fullJID { reply += " to='\(XMLEscaping.attribute(me))'" }
        reply += ">" + error.xml + "</message>"
        connection.send(reply)
    }

    /// A body over `ChatStore.maxMessageBytes`.
    static let bodyTooLong = StanzaError(condition: .notAcceptable, type: .modify,
                                         text: "The message body is longer than \(ChatStore.maxMessageBytes) bytes")
    /// Storage failed: the client may try again.
    static let notStored = StanzaError(condition: .internalServerError, type: .wait)
    /// The disk is full: the client may try again later.
    static let diskFull = StanzaError(condition: .resourceConstraint, type: .wait, text: "The server's disk is full; try again later")

    static func extraParams(_ stanza: XMPPElement) -> XMPPElement? { stanza.child("extraParams") }

    static func isSaved(_ stanza: XMPPElement) -> Bool {
        extraParams(stanza)?.childText("save_to_history")?.trimmingCharacters(" ") == "1"
    }

    /// A message from a plain XMPP client, which knows nothing of QuickBlox: no
    /// `extraParams` at all. Its chat and group chat are kept like an SDK's saved
    /// message (docs/protocol.md §7).
    static func isPlain(_ stanza: XMPPElement) -> Bool { extraParams(stanza) == nil }

    /// The `date_sent` the sending client put in `extraParams` (unix seconds; a fraction is cut),
    /// which the service keeps as the message's; nil when absent or not a number.
    static func clientDateSent(_ stanza: XMPPElement) -> Int? {
        guard let text = extraParams(stanza)?.childText("date_sent")?.trimmingCharacters(" "),
              let value = Double(text), value.isFinite, value > 0, value < 1e15 else { return nil }
        return Int(value)
    }

    /// Attachments and custom keys of `extraParams`, as stored.
    static func content(of stanza: XMPPElement) -> (attachments: [MessageAttachment], custom: [(String, String)]) {
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

    // MARK: message ids (docs/protocol.md §7, "Message ids")

    /// The id the sender gave a message: its XEP-0359 `<origin-id/>`, else the stanza's `id`.
    static func senderId(of stanza: XMPPElement) -> String? {
        let origin = stanza.childAttribute("id", of: "origin-id", namespace: XMPPNamespace.stanzaIds)
        let id = origin ?? stanza[attribute: "id"]
        return (id?.isEmpty ?? true) ? nil : id
    }

    /// A copy for recipients: new `from`/`to`/`id`, with `dialog_id` and `date_sent` set in
    /// `extraParams`. `originId` (the sender's own id, when it is not `id`) is kept as an XEP-0359
    /// `<origin-id/>`, and `stanzaId` (a stored message's id, by the archive that holds it) as a
    /// `<stanza-id/>`; a `<stanza-id/>` the sender wrote is dropped, as XEP-0359 asks of servers.
    static func forwarded(_ stanza: XMPPElement, from: String, to: String, id: String?,
                          dialogId: String?, dateSent: Int?, originId: String? = nil,
                          stanzaId: (id: String, by: String)? = nil) -> XMPPElement {
        var copy = stanza
        copy.attributes.removeAll { ["from", "to", "id"].contains($0.name) }
        copy.attributes.insert(XMPPElement.Attribute(name: "to", value: to), at: 0)
        copy.attributes.insert(XMPPElement.Attribute(name: "from", value: from), at: 0)
        if let id { copy.attributes.append(XMPPElement.Attribute(name: "id", value: id)) }
        copy.children.removeAll {
            if case .element(let e) = $0 { return e.name == "stanza-id" && e.namespace == XMPPNamespace.stanzaIds }
            return false
        }
        if let originId, originId != id, !stanza.hasChild("origin-id", namespace: XMPPNamespace.stanzaIds) {
            copy.children.append(.element(XMPPElement(name: "origin-id", namespace: XMPPNamespace.stanzaIds,
                                                      attributes: [.init(name: "id", value: originId)])))
        }
        if let stanzaId {
            copy.children.append(.element(XMPPElement(name: "stanza-id", namespace: XMPPNamespace.stanzaIds,
                                                      attributes: [.init(name: "id", value: stanzaId.id), .init(name: "by", value: stanzaId.by)])))
        }
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

    // MARK: 1:1

    private func sendToUser(_ userId: Int, _ message: ForwardedStanza) {
        guard let connections = sessions[userId], !connections.isEmpty else { return }
        let bytes = message.bytes(parentNamespace: XMPPNamespace.client)
        for connection in connections.values { connection.send(bytes) }
    }

    private func marker(in stanza: XMPPElement) -> XMPPElement? {
        stanza.elements.first { $0.namespace == XMPPNamespace.chatMarkers && ($0.name == "received" || $0.name == "displayed") }
    }

    private func direct(_ stanza: XMPPElement, type: MessageType, from connection: XMPPClientConnection, sender: Int, recipient: Int) {
        guard let senderJID = connection.session.fullJID else { return }
        if type == .error {
            // Errors go to the addressee as they are, or nowhere.
            return sendToUser(recipient, ForwardedStanza(stanza, from: senderJID, to: stanza[attribute: "to"] ?? chat.userJID(recipient),
                                                         id: stanza[attribute: "id"], dialogId: nil, dateSent: nil))
        }
        let exists: Bool = records.store == nil ? sessions[recipient] != nil : (records.storage { try $0.userExists(recipient) } ?? false)
        guard exists else { return Self.bounce(stanza, to: connection, StanzaError(condition: .serviceUnavailable)) }
        let to = stanza[attribute: "to"] ?? chat.userJID(recipient)
        if type == .headline { return headline(stanza, from: senderJID, to: to, recipient: recipient) }
        let body = stanza.childText("body")
        guard let body else {
            // Markers, typing and other content-free messages: recorded (markers) and passed on.
            var copy = ForwardedStanza(stanza, from: senderJID, to: to, id: stanza[attribute: "id"], dialogId: nil, dateSent: nil)
            if let marker = marker(in: stanza), let messageId = marker[attribute: "id"] {
                let marked = record(marker.name, of: messageId, by: sender, to: recipient)
                // The sender knows its message by the id it gave it (XEP-0333 refers to that id).
                if let origin = marked?.originId { copy.markerId = (old: messageId, new: origin) }
            }
            deliverDirect(copy, to: recipient)
            return carbons(of: copy, user: sender, except: connection)
        }
        guard body.utf8.count <= ChatStore.maxMessageBytes else { return Self.bounce(stanza, to: connection, Self.bodyTooLong) }
        var stored: MessageRecord?
        var dateSent = Int(records.now().rounded(.down))
        // An SDK's message not to be saved goes as it was sent: its `extraParams` are the app's own,
        // which QuickBlox's SDKs hand over whole, so the server adds no dialog and no date to them.
        let asSent = !Self.isSaved(stanza) && !Self.isPlain(stanza)
        let given = Self.extraParams(stanza)?.childText("dialog_id")?.trimmingCharacters(" ")
        var dialog = asSent ? nil : privateDialog(between: sender, recipient, preferring: given)
        if (Self.isSaved(stanza) || (type == .chat && Self.isPlain(stanza))) && recipient != sender && records.store != nil {
            // In a dialog that exists, the INSERT itself tells a resend of a stored ObjectId
            // (no lookup before it); otherwise it is looked up first, so no dialog is made for one.
            let idOnInsert = dialog != nil
            let (resend, idOwner) = records.isResend(stanza, by: sender, in: dialog?.id, body: body, idOnInsert: idOnInsert)
            func alreadyStored() {
                // A resend (after a reconnect) of what is already stored and was delivered then.
                records.log.log(.debug, "xmpp: message \(Self.senderId(of: stanza) ?? "") from \(sender) already stored")
            }
            if resend { return alreadyStored() }
            if dialog == nil {
                dialog = records.storage { try $0.createDialog(type: .privateChat, name: nil, photo: nil, ownerId: sender, occupants: [recipient]) }
            }
            guard let dialog else { return Self.bounce(stanza, to: connection, records.notStoredError) }
            let (attachments, custom) = Self.content(of: stanza)
            let markable = stanza.hasChild("markable", namespace: XMPPNamespace.chatMarkers)
            do {
                stored = try records.store?.insertMessage(NewMessage(id: stanza[attribute: "id"], originId: Self.senderId(of: stanza),
                                                             dialogId: dialog.id, body: body, senderId: sender, attachments: attachments,
                                                             markable: markable, custom: custom,
                                                             dateSent: Self.clientDateSent(stanza)),
                                                  in: dialog, idOwner: idOwner)
            } catch is ChatStore.AlreadyStored {
                return alreadyStored()
            } catch {
                records.noteStorageFailure(error)
            }
            guard let stored else { return Self.bounce(stanza, to: connection, records.notStoredError) }
            if records.store?.space.isShort == true && records.store?.isInTransaction == false {
                records.store?.space.isShort = false
                SpaceNotice.process.returned()
            }
            dateSent = stored.dateSent
        }
        // Every message with a body reaches its recipient with an ObjectId, so it can be filed and marked.
        let id = records.deliveryId(stored: stored?.id, stanza: stanza)
        // Build the copy only for someone online to receive it (the recipient,
        // or the sender's other resources): offline, storing was all there was to do.
        guard sessions[recipient] != nil || (sessions[sender]?.count ?? 0) > 1 else { return }
        let copy = ForwardedStanza(stanza, from: senderJID, to: to, id: id, dialogId: asSent ? nil : dialog?.id ?? given,
                                   dateSent: asSent ? nil : dateSent,
                                   originId: Self.senderId(of: stanza), stanzaId: stored.map { ($0.id, chat.userJID(recipient)) })
        deliverDirect(copy, to: recipient)
        carbons(of: copy, user: sender, except: connection)
    }

    /// A QuickBlox system notification (`type="headline"`, docs/protocol.md §7): passed
    /// on as it is, with the sender's full JID; never stored, no carbons.
    private func headline(_ stanza: XMPPElement, from senderJID: String, to: String, recipient: Int) {
        deliverDirect(ForwardedStanza(stanza, from: senderJID, to: to, id: stanza[attribute: "id"], dialogId: nil, dateSent: nil),
                      to: recipient)
    }

    /// Addressed to a bound full JID, only that resource gets it and the user's other
    /// carbons-enabled resources a `received` copy (RFC 6121 §8.5.3, XEP-0280); to the
    /// bare JID (or a resource that is gone), every resource of the user.
    private func deliverDirect(_ message: ForwardedStanza, to recipient: Int) {
        guard let resource = XMPPAddress(message.to)?.resource,
              let target = sessions[recipient]?[resource] else {
            return sendToUser(recipient, message)
        }
        target.send(message.bytes(parentNamespace: XMPPNamespace.client))
        carbons(of: message, user: recipient, except: target, direction: "received")
    }

    /// XEP-0280 copies for `user`'s other resources that enabled carbons: `sent` for what
    /// the user sent (so another chatctl of the same user sees it), `received` for what
    /// reached one resource only.
    private func carbons(of message: ForwardedStanza, user: Int, except origin: XMPPClientConnection, direction: String = "sent") {
        // The copy has the stanza's type and hints (forwarding changes neither).
        guard MessageType(of: message.stanza) == .chat,
              !message.stanza.hasChild("private", namespace: XMPPNamespace.carbons),
              !message.stanza.hasChild("no-copy", namespace: XMPPNamespace.hints) else { return }
        let targets = (sessions[user]?.values.map { $0 } ?? []).filter { $0 !== origin && $0.session.carbonsEnabled }
        guard !targets.isEmpty else { return } // the usual case: serialise nothing
        let inner = message.serialized(parentNamespace: XMPPNamespace.forward)
        for connection in targets {
            guard let jid = connection.session.fullJID else { continue }
            connection.send("<message from='\(chat.userJID(user))' to='\(XMLEscaping.attribute(jid))' type='chat'><\(direction) xmlns='\(XMPPNamespace.carbons)'><forwarded xmlns='\(XMPPNamespace.forward)'>\(inner)</forwarded></\(direction)></message>")
        }
    }

    /// The private dialog of the two users: `preferring` when it is theirs, else any.
    private func privateDialog(between a: Int, _ b: Int, preferring id: String?) -> DialogRecord? {
        if let id, let dialog = records.find({ try $0.routingDialog(id: id) }), dialog.type == .privateChat,
           dialog.occupantIds.count == 2, dialog.occupantIds.contains(a), dialog.occupantIds.contains(b) {
            return dialog
        }
        return records.find { try $0.routingPrivateDialog(between: a, b) }
    }

    /// A `received` or `displayed` marker from `userId` to `recipient` for a stored message of a
    /// dialog they are in: it counts when it goes to the message's sender (docs/protocol.md §7).
    /// The marker may name the stored id or the id the sender gave the message. Returns the
    /// message it counted for. A message stored lately is known without a read
    /// (`ChatStore.messageOrigin`), and the mark is one row written.
    @discardableResult
    private func record(_ marker: String, of messageId: String, by userId: Int, to recipient: Int) -> MessageOrigin? {
        let found = ObjectIdGenerator.isValid(messageId) ? records.find({ try $0.messageOrigin(id: messageId) }) : nil
        guard let message = found ?? records.find({ try $0.messageOrigin(originId: messageId, senderId: recipient) }),
              message.senderId != userId, message.senderId == recipient,
              let dialog = records.find({ try $0.routingDialog(id: message.dialogId) }), dialog.admits(userId) else { return nil }
        if marker == "displayed" {
            _ = records.storage { try $0.markRead(message, userId: userId) }
        } else {
            _ = records.storage { try $0.markDelivered(message, userId: userId) }
        }
        return message
    }

    // MARK: live delivery of REST messages (`send_to_chat=1`)

    func deliver(_ message: MessageRecord, in dialog: DialogRecord) {
        if dialog.type.isGroup {
            muc.deliver(message, in: dialog)
        } else if let recipient = dialog.peer(of: message.senderId) {
            let text = "<message type='chat' from='\(chat.userJID(message.senderId))' to='\(chat.userJID(recipient))' id='\(message.id)'>\(Self.payload(of: message))</message>"
            for connection in sessions[recipient]?.values.map({ $0 }) ?? [] { connection.send(text) }
        }
    }

    /// A stored message's `<body>`, `extraParams` (dialog, date, custom keys, attachments) and
    /// `<markable/>`, as chat delivers it.
    static func payload(of message: MessageRecord) -> String {
        var params = "<save_to_history>1</save_to_history><dialog_id>\(XMLEscaping.text(message.dialogId))</dialog_id><date_sent>\(message.dateSent)</date_sent>"
        for (key, value) in message.custom where XMLEscaping.isName(key) {
            params += "<\(key)>\(XMLEscaping.text(value))</\(key)>"
        }
        params += message.attachments.map(\.xml).joined()
        return "<body>\(XMLEscaping.text(message.body))</body><extraParams xmlns='\(XMPPNamespace.client)'>\(params)</extraParams>"
            + (message.markable ? "<markable xmlns='\(XMPPNamespace.chatMarkers)'/>" : "")
    }
}

@available(*, unavailable) extension XMPPStanzaRouter: Sendable {}
