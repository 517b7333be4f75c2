#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A mute for a while (`dialogs mute --for`) that ends while the chat view is open is undone
/// then (docs/protocol.md §5, "Notification settings"): unmuted on the server and the dialog
/// list told again, so the dialog's messages ring and count from that moment, not from the
/// view's next start. The cache is read again now and then for mutes set elsewhere meanwhile.
extension ChatEngine {
    /// How often the cache is asked when the next mute ends (another chatctl may mute meanwhile).
    static let muteEndsRereadSeconds: Int64 = 15

    func endMutesIfDue() {
        guard settings.reportsDialogList else { return }
        if muteEndsReadAt.map({ ContinuousClock.now - $0 >= .seconds(Self.muteEndsRereadSeconds) }) ?? true {
            muteEndsAt = try? service.cache.nextMuteEnd()
            muteEndsReadAt = .now
        }
        let now = Int(Date().timeIntervalSince1970)
        guard let endsAt = muteEndsAt, now >= endsAt else { return }
        let (ended, failure) = service.endExpiredMutes(now: now)
        for dialog in ended where dialogs[dialog.id] != nil { dialogs[dialog.id] = dialog }
        if !ended.isEmpty { reportDialogs() }
        if let failure {
            // Tried again at the next read of the cache; told once for a run of failures.
            if !muteEndFailing { emit(.notice(.failed(.endMute, failure))) }
            muteEndFailing = true
            muteEndsAt = nil
        } else {
            muteEndFailing = false
            muteEndsAt = try? service.cache.nextMuteEnd()
            muteEndsReadAt = .now
        }
    }
}
