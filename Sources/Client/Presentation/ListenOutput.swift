#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MessageCache
import Messaging
import QuickBloxAPI

/// What `listen` prints: a line per message (yours, sent from another device, with
/// "you" as the sender), or the message object as JSON Lines (yours with
/// `"outgoing":true` added); and the notices about dialogs that system
/// notifications brought, for stderr. Names and text from others are sanitized.
package enum ListenOutput {
    /// `names`: who the quoted originals' senders are, when the quote does not name them.
    package static func line(_ message: CachedMessage, title: String, sender: String, outgoing: Bool,
                     zone: TimeText.Zone = .local, names: [Int: String] = [:]) -> String {
        let time = TimeText.format(Double(message.dateSent), "%H:%M", in: zone)
        let name = outgoing ? "you" : TerminalText.sanitize(sender, newlines: .asSpaces)
        let text = QuoteLine.body(of: message, names: names).replacing("\n", with: "\n    ")
        return "\(time) [\(TerminalText.sanitize(title, newlines: .asSpaces))] \(name): \(text)\n"
    }

    /// The cached QuickBlox message object; ours gets `"outgoing":true` and its
    /// read state, and with `listen --download` the paths its attachments were saved
    /// to, null for one that was not (keys only added, so scripts that read the
    /// others' shape are unaffected).
    package static func json(_ message: CachedMessage, outgoing: Bool, me: Int, downloaded: [String?]? = nil) -> String {
        var extra: [String: JSONValue] = outgoing ? ["outgoing": .bool(true)] : [:]
        if let downloaded { extra["downloaded"] = .array(downloaded.map { $0.map(JSONValue.string) ?? .null }) }
        return JSONOutput.message(message, me: me, extra: extra) + "\n"
    }

    /// "alice added you to ops", without the `chatctl: ` prefix. `actor` nil: the
    /// notification came from no user; `title` as `DialogTitle.of` makes it.
    package static func notice(_ notice: DialogNotice, actor: String?, title: String) -> String {
        let who = actor.map { TerminalText.sanitize($0, newlines: .asSpaces) }
        let title = TerminalText.sanitize(title, newlines: .asSpaces)
        switch (notice.change, notice.dialog.type == .private, who) {
        case (.added, false, let who?): return "\(who) added you to \(title)"
        case (.added, false, nil): return "you were added to \(title)"
        case (.added, true, let who?): return "\(who) started a private dialog with you"
        case (.added, true, nil): return "a private dialog with \(title) was started"
        case (.updated, _, let who?): return "\(who) updated \(title)"
        case (.updated, _, nil): return "\(title) was updated"
        }
    }
}
