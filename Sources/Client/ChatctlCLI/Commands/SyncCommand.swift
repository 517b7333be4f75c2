import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl sync [DIALOG…]`: dialogs, then each dialog's recent messages,
/// into the cache; a progress line on a terminal.
struct SyncCommand: Command {
    static let configuration = CommandConfiguration(
        name: "sync",
        abstract: "Fill the local cache with dialogs and their recent messages.",
        examples: [
            Example("Fill the cache with all your dialogs' recent messages", "chatctl sync"),
            Example("Only ops and the dialog with bob, up to 5000 messages each", "chatctl sync ops @bob -n 5000"),
            Example("How much was fetched, as JSON", "chatctl sync --json"),
        ])

    @Arguments("DIALOG", help: "Only these dialogs (default: all).")
    var dialogs: [DialogReference]
    @Option("limit", short: "n", metavar: "N", help: "Messages per dialog.", range: 1...1_000_000)
    var limit = 1000
    @Flag("quiet", short: "q", help: "No progress line on stderr.")
    var quiet: Bool
    @Flag("json", help: "Print how many dialogs were synced and messages fetched, as JSON.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(source: .server)
        let references = dialogs
        try service.syncDialogs()
        let dialogs = references.isEmpty ? try service.dialogs(type: nil, limit: nil, source: .cacheOnly) : try references.map { reference in
            try service.resolve(reference, source: .server, createPrivate: false)
        }
        let total = try Self.fetchHistory(of: dialogs, limit: limit, service: service, context: context, quiet: quiet)
        if json {
            // The keys of `cache rebuild --json`'s counts.
            context.io.writeOut(JSONOutput.line(.object(["dialogs": .int(dialogs.count), "messages": .int(total)])))
        } else {
            context.io.writeErr("chatctl: synced \(dialogs.count) dialog\(dialogs.count == 1 ? "" : "s"), \(total) message\(total == 1 ? "" : "s") fetched\n")
        }
        return .ok
    }

    /// Each dialog's messages since its cursor (up to `limit`) into the cache, with a
    /// progress line on a terminal (none when `quiet`); returns how many were fetched. (`cache rebuild` too.)
    static func fetchHistory(of dialogs: [CachedDialog], limit: Int, service: MessagingService, context: CommandContext,
                             quiet: Bool) throws -> Int {
        let showProgress = context.io.stderrIsTerminal && !quiet
        var total = 0
        for (index, dialog) in dialogs.enumerated() {
            if showProgress { context.io.writeErr("\r\u{1B}[Ksyncing \(ProgressBar.render(done: index, of: dialogs.count)) \(index)/\(dialogs.count) dialogs") }
            total += try service.syncNewHistory(dialogID: dialog.id, limit: limit)
        }
        if showProgress { context.io.writeErr("\r\u{1B}[K") }
        return total
    }
}
