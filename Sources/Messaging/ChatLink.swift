#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ClientConfiguration
import MessageCache
import QuickBloxAPI
import XMPPTransport

/// The user's chat connection for messaging commands; confined to the thread
/// that created it (it runs libstrophe's loop inside `pump`).
public final class ChatLink {
    /// Connects (trust store, options, JID) exactly as `chatctl login` does,
    /// and disconnects politely when released.
    private let connector: XMPPChatConnector
    public var connection: XMPPConnection { connector.connection }
    public let config: ClientConfig
    public let me: Int
    private let secret: String

    /// `secret` is the session token, or the password when the config says `chatAuth: password`.
    public init(config: ClientConfig, me: Int, secret: String, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.config = config; self.me = me; self.secret = secret
        connector = XMPPChatConnector(config: config, verboseLog: verboseLog)
    }

    public func connect() throws(MessagingError) {
        do { try connector.connect(userId: me, secret: secret) } catch {
            throw MessagingError(describing: error)
        }
        // The session's first stanzas (carbons, presence) go on the wire now, not at the
        // next pump: whatever the caller announces next (listen's ready line) comes after them.
        connection.pump(timeout: 0)
    }

    /// Where a dialog's messages go: the other user's JID for a private dialog,
    /// the room for a group.
    public func address(of dialog: CachedDialog) throws(MessagingError) -> (ChatJID, OutgoingChatMessage.Kind) {
        let app = config.credentials.applicationId
        if dialog.type == .private {
            guard let peer = dialog.occupantIDs.first(where: { $0 != me }) else {
                throw MessagingError(.invalidInput, "private dialog \(dialog.id) has no other occupant")
            }
            return (ChatJID.user(peer, appID: app, domain: config.chatDomain), .chat)
        }
        return (ChatJID.room(dialogID: dialog.id, appID: app, mucDomain: "muc." + config.chatDomain), .groupchat)
    }

    /// Joins the rooms of the group dialogs among `dialogs` (needed to send to or hear from them).
    public func joinRooms(of dialogs: [CachedDialog]) throws(MessagingError) {
        for dialog in dialogs where dialog.type != .private {
            let (room, _) = try address(of: dialog)
            guard !connection.joinedRooms.contains(room) else { continue }
            do { try connection.join(roomJID: room, nick: String(me)) } catch {
                throw MessagingError(describing: error)
            }
        }
    }
}

extension CachedMessage {
    /// A chat message as the cache keeps it: in the shape of a QuickBlox message object.
    init(_ incoming: IncomingChatMessage, dialogID: String, recipient: Int) {
        var object: [String: JSONValue] = [
            "_id": .string(incoming.id), "chat_dialog_id": .string(dialogID), "message": .string(incoming.body),
            "sender_id": .int(incoming.senderUserID ?? 0), "recipient_id": .int(recipient), "date_sent": .int(incoming.dateSent),
        ]
        // As a REST history item says it, so a marker can be sent for it later.
        if incoming.markable { object["markable"] = .int(1) }
        for (key, value) in incoming.customParameters where object[key] == nil { object[key] = .string(value) }
        if !incoming.attachments.isEmpty { object["attachments"] = .array(incoming.attachments.map { .object($0.mapValues(JSONValue.string)) }) }
        self.init(id: incoming.id, dialogID: dialogID, senderID: incoming.senderUserID ?? 0, recipientID: recipient,
                  dateSent: incoming.dateSent, text: incoming.body, rawJSON: CacheRecords.json(object))
    }

    /// What we sent, as the server will have stored it: the sender counts as
    /// having it and having read it (docs/protocol.md §6).
    init(sentID: String, dialogID: String, sender: Int, recipient: Int, text: String, dateSent: Int) {
        let object: [String: JSONValue] = [
            "_id": .string(sentID), "chat_dialog_id": .string(dialogID), "message": .string(text),
            "sender_id": .int(sender), "recipient_id": .int(recipient), "date_sent": .int(dateSent),
            "delivered_ids": [.int(sender)], "read_ids": [.int(sender)], "markable": .int(1),
        ]
        self.init(id: sentID, dialogID: dialogID, senderID: sender, recipientID: recipient, dateSent: dateSent,
                  text: text, rawJSON: CacheRecords.json(object), deliveredIDs: [sender], readIDs: [sender])
    }
}
