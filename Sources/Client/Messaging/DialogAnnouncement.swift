import MessageCache
import XMPPTransport

/// Who is told about a dialog over chat, and how (docs/protocol.md §7): on creation
/// every other occupant hears "created"; when occupants are added, the new ones hear
/// "created" (the dialog is new to them, as the QuickBlox samples tell them) and the
/// others "updated" with `new_occupants_ids`. Pure: the notifications are values.
package struct DialogAnnouncement: Sendable, Equatable {
    package var dialog: CachedDialog
    /// Who did it: never told.
    package var me: Int
    /// nil: the dialog was just created; else the occupants just added.
    package var added: [Int]?

    package init(dialog: CachedDialog, me: Int, added: [Int]? = nil) {
        self.dialog = dialog; self.me = me; self.added = added
    }

    /// Every other occupant, in the dialog's order, with what they are told.
    package var recipients: [(userID: Int, kind: OutgoingSystemNotification.Kind)] {
        var seen: Set<Int> = [me]
        return dialog.occupantIDs.compactMap { id in
            guard seen.insert(id).inserted else { return nil }
            guard let added else { return (id, .dialogCreated) }
            return (id, added.contains(id) ? .dialogCreated : .dialogUpdated)
        }
    }

    /// One notification per recipient; `makeID` gives each its stanza id.
    package func notifications(appID: Int, chatDomain: String, dateSent: Int,
                              makeID: () -> ObjectID) -> [OutgoingSystemNotification] {
        let room = dialog.type == .private ? nil : ChatJID.room(dialogID: dialog.id, appID: appID, mucDomain: "muc." + chatDomain)
        return recipients.map { recipient in
            OutgoingSystemNotification(
                id: makeID(), to: ChatJID.user(recipient.userID, appID: appID, domain: chatDomain), kind: recipient.kind,
                dialogID: dialog.id, dialogType: dialog.type.rawValue, name: dialog.name, occupantIDs: dialog.occupantIDs,
                roomJID: room, newOccupantIDs: recipient.kind == .dialogUpdated ? added ?? [] : [], dateSent: dateSent)
        }
    }
}
