#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl outbox flush`: delivers what the outbox holds, each exactly once.
struct OutboxFlushCommand: Command {
    static let configuration = CommandConfiguration(
        name: "flush",
        abstract: "Deliver the messages in the outbox, each exactly once.",
        discussion: """
            A message whose files were not all uploaded (an interrupted 'send --attach') \
            has them finished first: a file uploaded is only completed, one cut short is \
            uploaded again; then the message is sent. What can never be sent leaves \
            the outbox with a line on stderr saying why, and is not retried: a blank \
            message, and one the server refuses for good (not an occupant, no such \
            dialog: then the exit status is 1 unless others still wait, 3).
            """,
        examples: [
            Example("Deliver what waits, each message exactly once", "chatctl outbox flush"),
            Example("From cron: no progress bar, what was sent as JSON", "chatctl outbox flush --quiet --json"),
        ])

    @Flag("quiet", short: "q", help: "No progress bar on stderr.")
    var quiet: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    /// The chat engine's flush (docs/protocol.md §7): entries the server already has are
    /// only removed; the files of the rest are finished, and then they go again over chat
    /// under their own ids, so a first attempt still on its way is not stored twice.
    func run(_ context: CommandContext) throws -> ExitCode {
        let session = try context.messagingSession(source: .server)
        let bars = UploadProgressBars(context: context, quiet: quiet)
        let engine = try context.chatEngine(for: session, settings: ChatEngine.Settings()) { event in
            if case .transfer(let update) = event { bars.update(update) }
        }
        let flush = OutboxFlush(running: engine)
        bars.finish()
        for dropped in flush.blank { context.io.writeErr("chatctl: \(dropped.message)\n") }
        for refusal in flush.refusals { context.io.writeErr("chatctl: \(TerminalText.sanitize(refusal.description, newlines: .asSpaces))\n") }
        if json {
            context.io.writeOut(JSONOutput.line(.object(["delivered": .int(flush.delivered), "undelivered": .int(flush.undelivered),
                                                         "refused": .int(flush.refused), "dropped_blank": .int(flush.blank.count)])))
        } else if flush.delivered > 0 || flush.undelivered == 0 {
            context.io.writeErr("chatctl: delivered \(flush.delivered) message\(flush.delivered == 1 ? "" : "s") from the outbox\n")
        }
        if let verdict = flush.verdict { throw verdict }
        return .ok
    }
}
