#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import MessageCache
import Messaging
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
            """)

    @Flag("quiet", short: "q", help: "No progress bar on stderr.")
    var quiet: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    /// Entries the server already has are only removed; the files of the rest
    /// are finished, and then they go again over chat under their own ids, so
    /// a first attempt still on its way is not stored twice.
    func run(_ context: CommandContext) throws -> ExitCode {
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let owner = Int(getpid())
        let claimed = try messaging { () throws(MessagingError) in try service.claimForFlush(owner: owner) }
        var delivered = claimed.alreadyThere
        var undelivered = 0
        var firstError = claimed.failures.first
        // Files before chat connects: a long upload would leave the connection idle.
        var toSend: [(CachedDialog, [OutboxEntry])] = []
        let uploader = OutboxUploader(service: service, owner: owner)
        let bars = UploadProgressBars(context: context, quiet: quiet)
        for (dialog, entries) in claimed.toSend {
            var ready: [OutboxEntry] = []
            for entry in entries {
                guard !entry.uploads.isEmpty else { ready.append(entry); continue }
                do {
                    ready.append(try uploader.finish(entry) { bars.update($0, $1) })
                } catch {
                    service.noteFailure(clientMessageID: entry.clientMessageID, owner: owner, error: error)
                    undelivered += 1
                    firstError = firstError ?? error
                }
                bars.finish()
            }
            if !ready.isEmpty { toSend.append((dialog, ready)) }
        }
        if !toSend.isEmpty {
            let link = try context.chatLink(for: session)
            let outbox = ChatOutbox(link: link, service: service, owner: owner)
            do {
                try link.connect()
                try link.joinRooms(of: toSend.map(\.0))
                for (dialog, entries) in toSend { try outbox.resend(entries, to: dialog) }
                if let error = outbox.finish() { firstError = firstError ?? error }
                delivered += outbox.delivered
                undelivered += outbox.undelivered
            } catch {
                for (_, entries) in toSend {
                    for entry in entries { service.noteFailure(clientMessageID: entry.clientMessageID, owner: owner, error: error) }
                    undelivered += entries.count
                }
                firstError = firstError ?? error
            }
        }
        if json {
            context.io.writeOut(JSONOutput.line(.object(["delivered": .int(delivered), "undelivered": .int(undelivered)])))
        } else if delivered > 0 || undelivered == 0 {
            context.io.writeErr("chatctl: delivered \(delivered) message\(delivered == 1 ? "" : "s") from the outbox\n")
        }
        if undelivered > 0 || !claimed.failures.isEmpty, let error = firstError {
            let count = max(undelivered, 1)
            throw CommandError.messaging(MessagingError(.undelivered(count),
                "\(count) message\(count == 1 ? "" : "s") still not delivered (\(error.message))",
                hint: "they stay in the outbox; try again later"))
        }
        return .ok
    }
}
