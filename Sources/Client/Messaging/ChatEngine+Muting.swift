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
    func endMutesIfDue(at now: ContinuousClock.Instant = .now) {
        guard settings.reportsDialogList else { return }
        if core.muteEndsNeedReading(at: now) { feed(.muteEndRead(try? service.cache.nextMuteEnd(), at: now)) }
        let unixNow = Int(Date().timeIntervalSince1970)
        guard let endsAt = core.muteEndsAt, unixNow >= endsAt else { return }
        let (ended, failure) = service.endExpiredMutes(now: unixNow)
        for dialog in ended where dialogs[dialog.id] != nil { feed(.dialogKnown(dialog)) }
        if !ended.isEmpty { reportDialogs() }
        feed(.mutesEnded(failure))
        if failure == nil { feed(.muteEndRead(try? service.cache.nextMuteEnd(), at: now)) }
    }
}
