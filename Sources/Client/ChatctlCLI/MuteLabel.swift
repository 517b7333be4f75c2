import ChatView
import MessageCache
import Presentation

/// How a dialog's mute reads (docs/protocol.md §5, "Notification settings"): a mute for a
/// while (`dialogs mute --for`) says when it ends, in the user's time zone.
enum MuteLabel {
    /// The dialog list's MUTED cell: empty, `muted`, `muted 45m` (under an hour left),
    /// `muted until 14:00` (under a day: the next 14:00), else `muted until Mon 30 Nov`. A mute
    /// whose end has passed but is not undone yet (an offline list) is still `muted`.
    static func column(_ dialog: CachedDialog, now: Int, clock: TimeLabels) -> String {
        guard dialog.muted else { return "" }
        guard let until = dialog.mutedUntil, until > now else { return "muted" }
        let left = until - now
        if left < 3600 { return "muted \((left + 59) / 60)m" }
        if left < 86400 { return "muted until " + clock.time(until) }
        return "muted until " + clock.date(until, now: now)
    }

    /// `dialogs show`'s line, and mute's: `yes`, `yes, until 2025-06-03 14:00`, or `no`.
    static func detail(_ dialog: CachedDialog) -> String {
        guard dialog.muted else { return "no" }
        return dialog.mutedUntil.map { "yes, until " + until($0) } ?? "yes"
    }

    /// `2025-06-03 14:00`, local time, as the dialog list's dates.
    static func until(_ unix: Int) -> String { TimeText.format(Double(unix), "%Y-%m-%d %H:%M", in: .local) }
}
