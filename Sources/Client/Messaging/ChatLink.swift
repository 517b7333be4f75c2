#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers
import ClientConfiguration
import Diagnostics
import MessageCache
import QuickBloxAPI
import XMPPTransport

/// The user's chat connection for messaging commands; confined to the thread
/// that created it (it runs libstrophe's loop inside `pump`).
package final class ChatLink: ChatLinking {
    /// Connects (trust store, options, JID) exactly as `chatctl login` does,
    /// and disconnects politely when released.
    package let connection = XMPPConnection()
    private let options: ChatConnectOptions
    package let config: ClientConfig
    package let me: Int
    /// The chat password for each connect: the session token as it is then (renewed if need
    /// be), or the user's password when the config says `chatAuth: password`.
    private let secret: () throws(Failure) -> String

    package init(config: ClientConfig, me: Int, verboseLog: (@Sendable (String) -> Void)? = nil,
                 secret: @escaping () throws(Failure) -> String) {
        self.config = config; self.me = me; self.secret = secret
        options = config.chatConnectOptions(verboseLog: verboseLog)
    }

    deinit { if connection.isConnected { connection.disconnect(timeout: 1) } }

    package func connect() throws(Failure) {
        let password = try secret()
        do { try connection.connect(jid: config.chatJID(userId: me), password: password, endpoint: config.chatEndpoint, options: options) } catch {
            throw Failure(describing: error)
        }
        // The session's first stanzas (carbons, presence) go on the wire now, not at the
        // next pump: whatever the caller announces next (listen's ready line) comes after them.
        connection.pump(timeout: 0)
    }

    /// Where a dialog's messages go: the other user's JID for a private dialog,
    /// the room for a group.
    package func address(of dialog: CachedDialog) throws(Failure) -> (ChatJID, OutgoingChatMessage.Kind) {
        let app = config.credentials.applicationId
        if dialog.type == .private {
            guard let peer = dialog.occupantIDs.first(where: { $0 != me }) else {
                throw Failure(.invalidInput, "private dialog \(dialog.id) has no other occupant")
            }
            return (ChatJID.user(peer, appID: app, domain: config.chatDomain), .chat)
        }
        return (ChatJID.room(dialogID: dialog.id, appID: app, mucDomain: "muc." + config.chatDomain), .groupchat)
    }

    package func userJID(_ id: Int) -> ChatJID {
        ChatJID.user(id, appID: config.credentials.applicationId, domain: config.chatDomain)
    }

    /// Joins the rooms of the group dialogs among `dialogs` (needed to send to or hear from them).
    package func joinRooms(of dialogs: [CachedDialog]) throws(Failure) {
        for dialog in dialogs where dialog.type != .private {
            let (room, _) = try address(of: dialog)
            guard !connection.joinedRooms.contains(room) else { continue }
            do { try connection.join(roomJID: room, nick: String(me)) } catch {
                throw Failure(describing: error)
            }
        }
    }

    // MARK: the connection, as the engine uses it

    package var isConnected: Bool { connection.isConnected }
    package var acknowledgedCount: UInt32 { connection.acknowledgedCount }
    package var onEvent: ((ChatEvent) -> Void)? {
        get { connection.onEvent }
        set { connection.onEvent = newValue }
    }
    package var onEventsDelivered: (() -> Void)? {
        get { connection.onEventsDelivered }
        set { connection.onEventsDelivered = newValue }
    }
    package func disconnect() { if connection.isConnected { connection.disconnect(timeout: 1) } }
    package func makeMessageID() -> ObjectID { connection.makeMessageID() }
    package func send(contentsOf messages: [OutgoingChatMessage]) throws(XMPPError) { _ = try connection.send(contentsOf: messages) }
    package func send(markers: [ChatMarker]) throws(XMPPError) { _ = try connection.sendMarkers(markers) }
    package func send(chatState: ChatState, to: ChatJID, kind: OutgoingChatMessage.Kind, dialogID: DialogID?) throws(XMPPError) {
        _ = try connection.sendChatState(chatState, to: to, kind: kind, dialogID: dialogID)
    }
    package func requestLastActivity(of id: Int) throws(XMPPError) { try connection.requestLastActivity(of: userJID(id)) }
    package func requestRoster() throws(XMPPError) -> String { try connection.requestRoster() }
    package func setRosterItem(_ user: Int, name: String?, remove: Bool) throws(XMPPError) -> String {
        try connection.setRosterItem(userJID(user), name: name, remove: remove)
    }
    package func sendSubscription(_ kind: SubscriptionPresence.Kind, to user: Int) throws(XMPPError) {
        try connection.sendSubscription(kind, to: userJID(user))
    }
    package func sendPrivacy(_ request: PrivacyQuery.Request) throws(XMPPError) -> String { try connection.sendPrivacy(request) }
    package func send(correction: ChatCorrection, to: ChatJID, kind: OutgoingChatMessage.Kind, dialogID: DialogID) throws(XMPPError) {
        try connection.sendCorrection(correction, to: to, kind: kind, dialogID: dialogID)
    }
    package func pump(timeout: Double, sliceMilliseconds: Int64, until: (() -> Bool)?) {
        connection.pump(timeout: timeout, sliceMilliseconds: sliceMilliseconds, until: until)
    }
    package func waitForAcknowledgement(timeout: Double) throws(XMPPError) { _ = try connection.waitForAcknowledgement(timeout: timeout) }
}

extension CachedMessage {
    /// A chat message as the cache keeps it: in the shape of a QuickBlox message object.
    init(_ incoming: IncomingChatMessage, dialogID: DialogID, recipient: Int) {
        // Members, not a dictionary: one object a message `listen` hears (JSONValue.compactObjectText).
        // In key order, so that the common message needs no sorting.
        var object: [(key: String, value: JSONValue)] = [
            ("_id", .string(incoming.id)), ("chat_dialog_id", .string(dialogID.rawValue)), ("date_sent", .int(incoming.dateSent)),
        ]
        // As a REST history item says it, so a marker can be sent for it later.
        if incoming.markable { object.append(("markable", .int(1))) }
        object += [("message", .string(incoming.body)), ("recipient_id", .int(recipient)), ("sender_id", .int(incoming.senderUserID ?? 0))]
        let attachments = incoming.attachments.map(QBAttachment.init)
        for (key, value) in incoming.customParameters
        where !Self.ownKeys.contains(key) && (key != "markable" || !incoming.markable) && (key != "attachments" || attachments.isEmpty) {
            object.append((key, .string(value)))
        }
        // As a REST history item has them: an array of objects, the size a number.
        if !attachments.isEmpty { object.append(("attachments", .array(attachments.map { .object($0.raw) }))) }
        self.init(id: incoming.id, dialogID: dialogID, senderID: incoming.senderUserID ?? 0, recipientID: recipient,
                  dateSent: incoming.dateSent, text: incoming.body, rawJSON: JSONValue.compactObjectText(object),
                  attachmentsJSON: CacheRecords.attachmentsJSON(attachments))
    }

    /// The keys a heard message's object always has; a custom parameter does not replace them.
    private static let ownKeys: Set<String> = ["_id", "chat_dialog_id", "message", "sender_id", "recipient_id", "date_sent"]

    /// What we sent, as the server will have stored it: the sender counts as
    /// having it and having read it (docs/protocol.md §6).
    init(sentID: String, dialogID: DialogID, sender: Int, recipient: Int, text: String, dateSent: Int, attachments: [QBAttachment] = [],
         custom: [String: String] = [:]) {
        var object: [String: JSONValue] = [
            "_id": .string(sentID), "chat_dialog_id": .string(dialogID.rawValue), "message": .string(text),
            "sender_id": .int(sender), "recipient_id": .int(recipient), "date_sent": .int(dateSent),
            "delivered_ids": [.int(sender)], "read_ids": [.int(sender)], "markable": .int(1),
        ]
        // Custom keys as the server returns them (strings), never over the protocol's own.
        for (key, value) in custom where object[key] == nil { object[key] = .string(value) }
        if !attachments.isEmpty { object["attachments"] = .array(attachments.map(\.json)) }
        self.init(id: sentID, dialogID: dialogID, senderID: sender, recipientID: recipient, dateSent: dateSent,
                  text: text, rawJSON: CacheRecords.json(object), deliveredIDs: [sender], readIDs: [sender],
                  attachmentsJSON: CacheRecords.attachmentsJSON(attachments))
    }
}

extension QBAttachment {
    /// An `<attachment/>` as a REST object would give it: the attributes as text, but a
    /// whole size as a number (docs/protocol.md §8).
    init(_ chat: ChatAttachment) {
        var members: [String: JSONValue] = [:]
        for attribute in chat.attributes where members[attribute.name] == nil {
            members[attribute.name] = .string(attribute.value)
        }
        if let size = chat.size { members["size"] = .int(size) }
        self.init(json: .object(members))!
    }
}

extension ChatAttachment {
    /// The element the SDKs read (docs/protocol.md §8): the protocol's fields in their
    /// order, `content-type` so spelt, then any other key whose value is text or a number.
    init(_ attachment: QBAttachment) {
        var extra: [String: String] = [:]
        for (key, value) in attachment.raw where !Self.fieldNames.contains(key) {
            switch value {
            case .string(let text): extra[key] = text
            case .int(let number): extra[key] = String(number)
            case .double(let number): extra[key] = String(number)
            case .bool(let flag): extra[key] = flag ? "true" : "false"
            case .null, .array, .object: break  // no attribute can carry them
            }
        }
        self.init(type: attachment.type, id: attachment.id, name: attachment.name, size: attachment.size,
                  contentType: attachment.contentType, url: attachment.url, extra: extra)
    }

    private static let fieldNames: Set = ["type", "id", "name", "size", "content-type", "content_type", "url"]
}
