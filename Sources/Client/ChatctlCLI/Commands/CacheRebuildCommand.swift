#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl cache rebuild`: copies the outbox out of the cache as far as it can be
/// read, moves the file aside, and fills a fresh cache from the server.
struct CacheRebuildCommand: Command {
    static let configuration = CommandConfiguration(
        name: "rebuild",
        abstract: "Rebuild the message cache from the server, keeping the outbox.",
        discussion: """
            For a damaged cache, or one written by a newer chatctl. The outbox (and the \
            files of its messages) is read out of the old file row by row, skipping what \
            cannot be read; the old file is moved aside as CACHE.old-TIME, never deleted; \
            a fresh cache gets the outbox back and then your dialogs and their recent \
            messages from the server. It says how many outbox messages could not be \
            saved. Stop other chatctl processes of this account first.
            """,
        examples: [
            Example("Rebuild it from the server, keeping the outbox", "chatctl cache rebuild"),
            Example("Without the network: the outbox only, then fill it", "chatctl cache rebuild --offline && chatctl sync"),
        ])

    @Option("limit", short: "n", metavar: "N", help: "Messages per dialog to fetch.", range: 1...1_000_000)
    var limit = 100
    @Flag("offline", help: "Only rebuild with the outbox; fill it later with 'chatctl sync'.")
    var offline: Bool
    @Flag("quiet", short: "q", help: "No progress line on stderr.")
    var quiet: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        // Logged in (and the server reached) before anything is moved.
        let login = try context.cacheLogin(source: offline ? .cacheOnly : .server)
        let (session, report) = try login.rebuildCache(now: Int(time(nil)))
        if let moved = report.movedTo { context.io.writeErr("chatctl: the old cache is kept as \(moved)\n") }
        var lost = "\(report.outboxLost)\(report.outboxLossUnknown ? " or more" : "")"
        if report.outboxLost == 0 && !report.outboxLossUnknown { lost = "none" }
        context.io.writeErr("chatctl: outbox: \(report.outboxSaved) message\(report.outboxSaved == 1 ? "" : "s") kept, \(lost) could not be saved\n")
        var dialogCount = 0, messageCount = 0
        if !offline {
            let service = session.service
            do {
                try service.syncDialogs()
                let dialogs = try service.dialogs(type: nil, limit: nil, source: .cacheOnly)
                dialogCount = dialogs.count
                messageCount = try SyncCommand.fetchHistory(of: dialogs, limit: limit, service: service, context: context, quiet: quiet)
            } catch let error as Failure {
                throw Failure(
                    error.kind, "the cache was rebuilt with its outbox, but filling it from the server failed: \(error.message)",
                    hint: "run 'chatctl sync' when the server can be reached")
            }
            context.io.writeErr("chatctl: fetched \(dialogCount) dialog\(dialogCount == 1 ? "" : "s"), \(messageCount) message\(messageCount == 1 ? "" : "s")\n")
        }
        if json {
            context.io.writeOut(JSONOutput.line(.object([
                "path": .string(report.path), "moved_to": report.movedTo.map(JSONValue.string) ?? .null,
                "outbox_saved": .int(report.outboxSaved), "uploads_saved": .int(report.uploadsSaved),
                "outbox_lost": .int(report.outboxLost), "outbox_loss_unknown": .bool(report.outboxLossUnknown),
                "dialogs": .int(dialogCount), "messages": .int(messageCount),
            ])))
        }
        return .ok
    }
}
