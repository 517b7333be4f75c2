import Diagnostics
import MessageCache
import QuickBloxAPI

/// Muted dialogs (docs/protocol.md §5, "Notification settings"): the user's notification
/// setting of a dialog on the server, followed by the cache's `muted` flag, which the
/// dialog list and the chat view read without asking the server.
extension MessagingService {
    /// Mutes (or unmutes) `dialog` on the server; the cache keeps what the server then holds.
    /// `until` (Unix seconds, muting only): when chatctl unmutes it again (`endExpiredMutes`);
    /// nil: until unmuted. A 403 is not allowed (exit 1), a 404 an unknown dialog, forgotten (exit 2).
    package func setMuted(_ muted: Bool, _ dialog: CachedDialog, until: Int? = nil) throws(Failure) -> CachedDialog {
        let settings: QBDialogNotifications
        do { settings = try api.updateDialogNotifications(dialogID: dialog.id, enabled: !muted) } catch {
            throw failure(error, doing: "\(muted ? "mute" : "unmute") \(Self.label(dialog))", dialog: dialog)
        }
        guard muted, !settings.enabled else { return try cacheMuted(!settings.enabled, dialog) }
        try cached { () throws(MessageCacheError) in _ = try cache.setDialogMuted(id: dialog.id, until: until) }
        var changed = dialog
        changed.muted = true
        changed.mutedUntil = until
        return changed
    }

    /// Whether the user muted `dialog`, as the server has it now; cached (a mute's end with it,
    /// while it stays muted).
    package func refreshMuted(_ dialog: CachedDialog) throws(Failure) -> CachedDialog {
        let settings: QBDialogNotifications
        do { settings = try api.dialogNotifications(dialogID: dialog.id) } catch {
            throw failure(error, doing: "read the notification settings of \(Self.label(dialog))", dialog: dialog)
        }
        return try cacheMuted(!settings.enabled, dialog)
    }

    /// Unmutes on the server each cached dialog whose mute for a while (`mute --for`) ended at or
    /// before `now`: the server's setting has no expiry, so the next command that looks does it.
    /// Returns the dialogs unmuted, and the failure of the first that could not be (tried again
    /// next time).
    package func endExpiredMutes(now: Int) -> (ended: [CachedDialog], failure: Failure?) {
        let due: [CachedDialog]
        do { due = try cached { () throws(MessageCacheError) in try cache.dialogsWithMuteEnded(now: now) } } catch {
            return ([], error)
        }
        var ended: [CachedDialog] = [], first: Failure?
        for dialog in due {
            do { ended.append(try setMuted(false, dialog)) } catch { first = first ?? error }
        }
        return (ended, first)
    }

    private func cacheMuted(_ muted: Bool, _ dialog: CachedDialog) throws(Failure) -> CachedDialog {
        let row = try cached { () throws(MessageCacheError) in
            _ = try cache.setDialogMuted(id: dialog.id, muted)
            return try cache.dialog(id: dialog.id)
        }
        var changed = dialog
        changed.muted = muted
        changed.mutedUntil = muted ? row?.mutedUntil : nil
        return changed
    }
}
