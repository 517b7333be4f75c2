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
            uploaded again; then the message is sent.
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
        let flushed = engine.flushOutbox()
        bars.finish()
        let finished = engine.finish()
        let failure = flushed.failure ?? finished
        let delivered = flushed.alreadyThere + engine.deliveredCount
        let undelivered = flushed.notUploaded + engine.undeliveredCount
        if json {
            context.io.writeOut(JSONOutput.line(.object(["delivered": .int(delivered), "undelivered": .int(undelivered)])))
        } else if delivered > 0 || undelivered == 0 {
            context.io.writeErr("chatctl: delivered \(delivered) message\(delivered == 1 ? "" : "s") from the outbox\n")
        }
        if undelivered > 0 || flushed.failure != nil, let error = failure {
            let count = max(undelivered, 1)
            throw Failure(.undelivered(count), "\(count) message\(count == 1 ? "" : "s") still not delivered (\(error.message))",
                          hint: "they stay in the outbox; try again later")
        }
        return .ok
    }
}
