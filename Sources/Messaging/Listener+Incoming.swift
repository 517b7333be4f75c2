#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MessageCache
import XMPPTransport

/// What arrives live (docs/protocol.md §7): messages, filed under their dialog even
/// when they name none; carbons, our own sends from other devices; and system
/// notifications, which bring new dialogs and have their rooms joined at once.
extension Listener {
    /// A chat or group message as it arrived.
    func receive(_ incoming: IncomingChatMessage) {
        guard !stopped else { return }
        let mine = incoming.senderUserID == link.me
        // A 1:1 message from ourselves is a note to self; only rooms echo what we sent elsewhere.
        if mine && incoming.kind == .chat { return }
        file(incoming, peer: incoming.kind == .chat ? incoming.senderUserID : nil, outgoing: mine)
    }

    /// A copy the server forwarded: what another of our devices sent or was sent.
    func receive(_ carbon: IncomingCarbon) {
        switch carbon.direction {
        case .received:
            receive(carbon.message)
        case .sent:
            guard !stopped, let peer = carbon.peer?.userID, peer != link.me else { return }
            file(carbon.message, peer: peer, outgoing: true)
        }
    }

    /// A dialog was created with us in it, or changed: taken from the server (the
    /// headline's fields are another user's word) and cached; a new group's room is
    /// joined at once, before the notice, so from the notice on its messages are heard.
    func receive(_ notification: IncomingSystemNotification) {
        guard !stopped else { return }
        let heardAt = Int(Date().timeIntervalSince1970)
        let known = dialogs[notification.dialogID] != nil || (try? service.cache.dialog(id: notification.dialogID)) != nil
        let dialog: CachedDialog
        do {
            // Not listed for us, or without us: a forgery, or we were removed again.
            guard let listed = try service.fetchDialog(id: notification.dialogID) else { return }
            dialog = listed
        } catch {
            onNotice("could not look up dialog \(notification.dialogID) from a notification: \(error.message)")
            return
        }
        let notice = DialogNotice(change: known ? .updated : .added, dialog: dialog, actorID: notification.senderUserID)
        guard followed.isEmpty || followed.contains(dialog.id), dialogs[dialog.id] == nil else {
            if dialogs[dialog.id] != nil { dialogs[dialog.id] = dialog }  // followed already: changed
            return onDialogNotice(notice)
        }
        dialogs[dialog.id] = dialog
        // What was said before we heard of the dialog is history; a gap fill after a reconnect starts here.
        lastSeen[dialog.id] = max(lastSeen[dialog.id] ?? 0, heardAt)
        guard dialog.type != .private else { return onDialogNotice(notice) }
        do { try link.joinRooms(of: [dialog]) } catch {
            onDialogNotice(notice)
            onNotice("could not join \(dialog.name.isEmpty ? dialog.id : dialog.name): \(error.message)")
            return
        }
        onDialogNotice(notice)
        // A message posted while we were joining went to the room without us: fetch it once.
        // (Two seconds back: date_sent counts whole seconds on the server's clock.)
        guard let missed = try? service.newMessages(dialogID: dialog.id, since: heardAt - 2, alsoCachedSince: startedAt) else { return }
        for message in missed where message.senderID != link.me && !handed.contains(message.id) {
            guard !stopped else { return }
            hand(message)
        }
    }

    // MARK: filing

    private func file(_ incoming: IncomingChatMessage, peer: Int?, outgoing: Bool) {
        guard let dialog = dialog(for: incoming, peer: peer) else { return }
        var incoming = incoming
        if incoming.id.isEmpty {
            // Neither the sender nor the server gave it an id: one of ours, so it is still shown and cached.
            incoming.id = localIDs.next(unixTime: UInt32(clamping: incoming.dateSent)).rawValue
        }
        let recipient = dialog.type == .private ? (outgoing ? peer ?? 0 : link.me) : 0
        // Cached and handed on with the rest of its batch (`storeArrivals`).
        arriving.append((CachedMessage(incoming, dialogID: dialog.id, recipient: recipient), outgoing))
    }

    /// The dialog a message belongs to: the one it names if that is ours (for a 1:1
    /// message, a private dialog with the peer), else for a 1:1 message the private
    /// dialog with the peer, found or (following everything) created over REST.
    private func dialog(for incoming: IncomingChatMessage, peer: Int?) -> CachedDialog? {
        if let id = incoming.dialogID {
            // A dialog created since we started (e.g. by this very message): learn it when following everything.
            if dialogs[id] == nil && followed.isEmpty { try? refreshDialogs() }
            if let dialog = dialogs[id], incoming.kind == .groupchat || Self.isPrivate(dialog, with: peer) { return dialog }
            // A 1:1 message naming a dialog that is not its own is filed like one naming none.
        }
        guard incoming.kind == .chat else { return nil }
        guard let peer, peer != link.me else {
            onNotice("ignored a message from \(incoming.from): not a user of this application")
            return nil
        }
        if let known = dialogs.values.first(where: { Self.isPrivate($0, with: peer) }) { return known }
        // Every followed dialog is in `dialogs` already.
        guard followed.isEmpty else { return nil }
        do {
            guard let dialog = try service.privateDialog(withUserID: peer, create: true) else { return nil }
            dialogs[dialog.id] = dialog
            return dialog
        } catch {
            onNotice("could not file a message from user \(peer): \(error.message)")
            return nil
        }
    }

    private static func isPrivate(_ dialog: CachedDialog, with peer: Int?) -> Bool {
        guard let peer else { return false }
        return dialog.type == .private && dialog.occupantIDs.contains(peer)
    }
}
