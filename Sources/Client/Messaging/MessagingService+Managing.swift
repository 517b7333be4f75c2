#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers
import Diagnostics
import MessageCache
import QuickBloxAPI

/// Changing dialogs and messages over REST (docs/protocol.md §5–6), the cache
/// following each change the server confirmed. A refusal (403) is a failure
/// that says what was not allowed; an unknown dialog or message is bad input and
/// is forgotten by the cache.
extension MessagingService {
    // MARK: dialogs

    /// The dialog as the server has it now, cached. One the server no longer gives
    /// this user is forgotten and reported unknown.
    package func refreshDialog(_ dialog: CachedDialog) throws(Failure) -> CachedDialog {
        guard let fresh = try fetchDialog(id: dialog.id) else { throw try forgetUnknown(dialog) }
        return fresh
    }

    /// Renames a group (its owner only, on the sandbox; docs/protocol.md §5).
    package func renameDialog(_ dialog: CachedDialog, to name: String) throws(Failure) -> CachedDialog {
        guard dialog.type != .private else {
            throw Failure(.invalidInput, "a private dialog has no name to change", hint: "only groups can be renamed")
        }
        return try update(dialog, doing: "rename \(Self.label(dialog))", refusal: "only its owner can rename it") { api throws(QuickBloxError) in
            try api.updateDialog(id: dialog.id, name: name)
        }
    }

    /// Adds users to a group (`push_all`).
    package func addOccupants(_ ids: [Int], to dialog: CachedDialog) throws(Failure) -> CachedDialog {
        try update(dialog, doing: "add people to \(Self.label(dialog))", refusal: "you may not add people to it") { api throws(QuickBloxError) in
            try api.updateDialog(id: dialog.id, addOccupants: ids)
        }
    }

    /// Removes users from a group (`pull_all`); removing anyone but yourself is the owner's.
    package func removeOccupants(_ ids: [Int], from dialog: CachedDialog) throws(Failure) -> CachedDialog {
        try update(dialog, doing: "remove people from \(Self.label(dialog))", refusal: "only its owner can remove others") { api throws(QuickBloxError) in
            try api.updateDialog(id: dialog.id, removeOccupants: ids)
        }
    }

    /// Leaves a group (`pull_all` of yourself); the cache forgets it. Returns the
    /// dialog as the server left it.
    @discardableResult
    package func leaveDialog(_ dialog: CachedDialog) throws(Failure) -> CachedDialog {
        let left = try update(dialog, doing: "leave \(Self.label(dialog))", refusal: "the server would not let you leave") { api throws(QuickBloxError) in
            try api.updateDialog(id: dialog.id, removeOccupants: [me])
        }
        try cached { () throws(MessageCacheError) in _ = try cache.removeDialog(id: dialog.id) }
        return left
    }

    /// `DELETE`: for this user only, or with `everyone` for every occupant (its owner
    /// only). The cache forgets it. Returns the server's answer.
    @discardableResult
    package func deleteDialog(_ dialog: CachedDialog, everyone: Bool) throws(Failure) -> QBDeletionResult {
        let what = "delete \(Self.label(dialog))\(everyone ? " for everyone" : "")"
        let result: QBDeletionResult
        do { result = try api.deleteDialogs(ids: [dialog.id], force: everyone) } catch {
            throw failure(error, doing: what, dialog: dialog, refusal: everyone ? "only its owner can delete it for everyone" : nil)
        }
        if result.wrongPermissions.contains(dialog.id.rawValue) {
            throw Failure(.failure, "not allowed to \(what)", hint: "only its owner can")
        }
        if result.notFound.contains(dialog.id.rawValue) { throw try forgetUnknown(dialog) }
        try cached { () throws(MessageCacheError) in _ = try cache.removeDialog(id: dialog.id) }
        return result
    }

    // MARK: messages

    /// Replaces the text of one of your messages in `dialogID`, and returns it as the
    /// server now has it (read back; the edit itself answers nothing), cached.
    package func editMessage(id: String, dialogID: DialogID, text: String) throws(Failure) -> CachedMessage {
        do { try api.editMessage(id: id, dialogId: dialogID, text: text) } catch {
            switch error.status {
            case 403: throw Failure(.failure, "not allowed to edit message \(id): \(Self.reason(error))", hint: "only its sender can edit it")
            case 404: throw try forgetUnknownMessage(id, in: dialogID)
            default: throw Failure(describing: error, doing: "edit message \(id)")
            }
        }
        var record: CachedMessage?
        if let fresh = try? api.message(id: id, dialogId: dialogID) {
            record = CacheRecords.message(fresh)
        } else if let old = try cached({ () throws(MessageCacheError) in try cache.message(id: id) }) {
            // The server would not say: what it must now hold is the cached message with the new text.
            var object = (try? JSONValue(parsing: old.rawJSON))?.objectValue ?? [:]
            object["message"] = .string(text)
            var edited = old
            edited.text = text
            edited.rawJSON = CacheRecords.json(object)
            record = edited
        }
        let message = record ?? CachedMessage(id: id, dialogID: dialogID, senderID: me, dateSent: 0, text: text,
                                              rawJSON: CacheRecords.json(["_id": .string(id), "chat_dialog_id": .string(dialogID.rawValue),
                                                                          "message": .string(text), "sender_id": .int(me)]))
        if record != nil { try cached { () throws(MessageCacheError) in _ = try cache.upsertMessages([message]) } }
        return message
    }

    /// Deletes a message for this user, or with `everyone` for every occupant (its
    /// sender only). The cache forgets it. Returns the server's answer.
    @discardableResult
    package func deleteMessage(id: String, everyone: Bool) throws(Failure) -> QBDeletionResult {
        let what = "delete message \(id)\(everyone ? " for everyone" : "")"
        let result: QBDeletionResult
        do { result = try api.deleteMessages(ids: [id], force: everyone) } catch {
            switch error.status {
            case 403: throw Failure(.failure, "not allowed to \(what): \(Self.reason(error))", hint: "only its sender can")
            case 404: throw try forgetUnknownMessage(id, in: nil)
            default: throw Failure(describing: error, doing: what)
            }
        }
        if result.wrongPermissions.contains(id) {
            throw Failure(.failure, "not allowed to \(what)", hint: "only its sender can")
        }
        if result.notFound.contains(id) || !result.successfullyDeleted.contains(id) { throw try forgetUnknownMessage(id, in: nil) }
        try cached { () throws(MessageCacheError) in _ = try cache.removeMessages(ids: [id]) }
        return result
    }

    // MARK: helpers

    /// A dialog in a sentence: `'ops'`, or `the private dialog {id}` (not sanitized).
    package static func label(_ dialog: CachedDialog) -> String {
        dialog.name.isEmpty || dialog.type == .private ? "the \(typeName(dialog.type)) dialog \(dialog.id)" : "'\(dialog.name)'"
    }

    /// The server's own words for a refusal.
    static func reason(_ error: QuickBloxError) -> String { error.reasons.joined(separator: "; ") }

    /// One `PUT /chat/Dialog/{id}.json`, its answer cached.
    private func update(_ dialog: CachedDialog, doing what: String, refusal: String,
                        _ call: (QuickBloxClient) throws(QuickBloxError) -> QBDialog) throws(Failure) -> CachedDialog {
        let updated: QBDialog
        do { updated = try call(api) } catch { throw failure(error, doing: what, dialog: dialog, refusal: refusal) }
        return try store(updated)
    }

    private func store(_ dialog: QBDialog) throws(Failure) -> CachedDialog {
        let record = CacheRecords.dialog(dialog)
        try cached { () throws(MessageCacheError) in try cache.upsertDialogs([record]) }
        try fetchUsers(dialog.occupantIDs)
        return record
    }

    /// 403: not allowed (exit 1), in the server's words; 404: unknown (and forgotten).
    func failure(_ error: QuickBloxError, doing what: String, dialog: CachedDialog,
                         refusal: String? = nil) -> Failure {
        switch error.status {
        case 403:
            return Failure(.failure, "not allowed to \(what): \(Self.reason(error))", hint: refusal)
        case 404:
            return (try? forgetUnknown(dialog)) ?? Failure(.invalidInput, "no dialog with id \(dialog.id)")
        default:
            return Failure(describing: error, doing: what)
        }
    }

    /// The error for a dialog the server does not know (for this user), after the cache forgot it.
    private func forgetUnknown(_ dialog: CachedDialog) throws(Failure) -> Failure {
        try cached { () throws(MessageCacheError) in _ = try cache.removeDialog(id: dialog.id) }
        return Failure(.invalidInput, "\(Self.label(dialog)) is not one of your dialogs on the server",
                              hint: "it was deleted or you were removed; run 'chatctl dialogs' to see yours")
    }

    private func forgetUnknownMessage(_ id: String, in dialogID: DialogID?) throws(Failure) -> Failure {
        try cached { () throws(MessageCacheError) in _ = try cache.removeMessages(ids: [id]) }
        let place = dialogID.map { " in dialog \($0)" } ?? ""
        return Failure(.invalidInput, "no message with id \(id)\(place)", hint: "it was deleted, or is not yours to see")
    }
}
