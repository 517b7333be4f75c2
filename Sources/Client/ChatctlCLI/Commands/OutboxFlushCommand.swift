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
        // One flush claims at most 10,000 entries (MessagingService.claimForFlush): rounds follow
        // while the last one moved something and nothing failed, so a flush empties the outbox.
        var flushed = engine.flushOutbox()
        var finished = engine.finish()
        var moved = flushed.alreadyThere + engine.deliveredCount + flushed.dropped.count
        while flushed.failure == nil, finished == nil, flushed.notUploaded == 0, moved > 0 {
            let deliveredBefore = engine.deliveredCount
            let round = engine.flushOutbox()
            finished = engine.finish()
            flushed.alreadyThere += round.alreadyThere
            flushed.notUploaded += round.notUploaded
            flushed.failure = round.failure
            flushed.dropped += round.dropped
            moved = round.alreadyThere + engine.deliveredCount - deliveredBefore + round.dropped.count
        }
        bars.finish()
        let failure = flushed.failure ?? finished
        let delivered = flushed.alreadyThere + engine.deliveredCount
        let undelivered = flushed.notUploaded + engine.undeliveredCount
        // Left the outbox unsent (issue 22): blank entries, and what the server refused for good.
        let blank = flushed.dropped.filter { !$0.isPermanent }
        var refusals = flushed.dropped.filter(\.isPermanent)
        if engine.refusedCount > 0 {
            let reason = [finished, flushed.failure].compactMap { $0 }.first(where: \.isPermanent)
            refusals.append(reason ?? Failure(.failure, "the server refused a message", hint: "the message was not kept in the outbox"))
        }
        let refused = flushed.dropped.filter(\.isPermanent).count + engine.refusedCount
        for dropped in blank { context.io.writeErr("chatctl: \(dropped.message)\n") }
        for refusal in refusals { context.io.writeErr("chatctl: \(TerminalText.sanitize(refusal.description, newlines: .asSpaces))\n") }
        if json {
            context.io.writeOut(JSONOutput.line(.object(["delivered": .int(delivered), "undelivered": .int(undelivered),
                                                         "refused": .int(refused), "dropped_blank": .int(blank.count)])))
        } else if delivered > 0 || undelivered == 0 {
            context.io.writeErr("chatctl: delivered \(delivered) message\(delivered == 1 ? "" : "s") from the outbox\n")
        }
        let stillWaiting = failure.map { !$0.isPermanent } ?? false
        if undelivered > 0 || (flushed.failure != nil && stillWaiting), let error = failure {
            let count = max(undelivered, 1)
            throw Failure(.undelivered(count), "\(count) message\(count == 1 ? "" : "s") still not delivered (\(error.message))",
                          hint: "they stay in the outbox; try again later")
        }
        if !refusals.isEmpty {
            let count = refused
            // Each already said above with the server's reason; the status says not all went well.
            throw Failure(.failure, "the server refused \(count) message\(count == 1 ? "" : "s"), removed from the outbox")
        }
        return .ok
    }
}
