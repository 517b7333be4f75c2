import Diagnostics
import MessageCache
import QuickBloxAPI

/// Muted dialogs (docs/protocol.md §5, "Notification settings"): the user's notification
/// setting of a dialog on the server, followed by the cache's `muted` flag, which the
/// dialog list and the chat view read without asking the server.
extension MessagingService {
    /// Mutes (or unmutes) `dialog` on the server; the cache keeps what the server then holds.
    /// A 403 is not allowed (exit 1), a 404 an unknown dialog, forgotten (exit 2).
    package func setMuted(_ muted: Bool, _ dialog: CachedDialog) throws(Failure) -> CachedDialog {
        let settings: QBDialogNotifications
        do { settings = try api.updateDialogNotifications(dialogID: dialog.id, enabled: !muted) } catch {
            throw failure(error, doing: "\(muted ? "mute" : "unmute") \(Self.label(dialog))", dialog: dialog)
        }
        return try cacheMuted(!settings.enabled, dialog)
    }

    /// Whether the user muted `dialog`, as the server has it now; cached.
    package func refreshMuted(_ dialog: CachedDialog) throws(Failure) -> CachedDialog {
        let settings: QBDialogNotifications
        do { settings = try api.dialogNotifications(dialogID: dialog.id) } catch {
            throw failure(error, doing: "read the notification settings of \(Self.label(dialog))", dialog: dialog)
        }
        return try cacheMuted(!settings.enabled, dialog)
    }

    private func cacheMuted(_ muted: Bool, _ dialog: CachedDialog) throws(Failure) -> CachedDialog {
        try cached { () throws(MessageCacheError) in _ = try cache.setDialogMuted(id: dialog.id, muted) }
        var changed = dialog
        changed.muted = muted
        return changed
    }
}
