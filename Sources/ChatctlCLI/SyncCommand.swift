import MessageCache
import Messaging

/// `chatctl sync [DIALOG…]`: dialogs, then each dialog's recent messages,
/// into the cache; a progress line on a terminal.
struct SyncCommand {
    let context: CommandContext

    func run() throws -> ExitCode {
        let limit = try context.intOption("limit", default: 1000, range: 1...1_000_000)
        let service = try context.messagingService(offline: false)
        let references = context.parsed.arguments("DIALOG")
        let dialogs: [CachedDialog] = try messaging { () throws(MessagingError) in
            try service.syncDialogs()
            if references.isEmpty { return try service.dialogs(type: nil, limit: nil, offline: true) }
            return try references.map { text throws(MessagingError) in
                try service.resolve(try DialogReference(parsing: text), offline: false, createPrivate: false)
            }
        }
        let showProgress = isatty(2) == 1
        var total = 0
        for (index, dialog) in dialogs.enumerated() {
            if showProgress { context.io.writeErr("\r\u{1B}[Ksyncing \(ProgressBar.render(done: index, of: dialogs.count)) \(index)/\(dialogs.count) dialogs") }
            total += try messaging { () throws(MessagingError) in
                let since = try service.cached { () throws(MessageCacheError) in try service.cache.lastSyncedDateSent(dialogID: dialog.id) }
                // date_sent[gt] since-1: messages in the same second as the cursor are fetched again (stored once).
                return try service.syncHistory(dialogID: dialog.id, limit: limit, before: nil, since: since.map { $0 - 1 })
            }
        }
        if showProgress { context.io.writeErr("\r\u{1B}[K") }
        context.io.writeErr("chatctl: synced \(dialogs.count) dialog\(dialogs.count == 1 ? "" : "s"), \(total) message\(total == 1 ? "" : "s") fetched\n")
        return .ok
    }
}

enum ProgressBar {
    static func render(done: Int, of total: Int, width: Int = 20) -> String {
        let filled = total == 0 ? width : done * width / total
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }
}

#if canImport(Glibc)
import Glibc
#endif
