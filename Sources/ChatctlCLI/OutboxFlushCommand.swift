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
        abstract: "Deliver the messages in the outbox, each exactly once.")

    @Flag("json", help: SharedHelp.json)
    var json: Bool

    /// Entries the server already has are only removed; the rest go again
    /// over chat under their own ids, so a first attempt still on its way is
    /// not stored twice.
    func run(_ context: CommandContext) throws -> ExitCode {
        let session = try context.messagingSession(offline: false)
        let service = session.service
        let owner = Int(getpid())
        let claimed = try messaging { () throws(MessagingError) in try service.claimForFlush(owner: owner) }
        var delivered = claimed.alreadyThere
        var undelivered = 0
        var firstError = claimed.failures.first
        if !claimed.toSend.isEmpty {
            let link = try context.chatLink(for: session)
            let outbox = ChatOutbox(link: link, service: service, owner: owner)
            do {
                try link.connect()
                try link.joinRooms(of: claimed.toSend.map(\.0))
                for (dialog, entries) in claimed.toSend { try outbox.resend(entries, to: dialog) }
                if let error = outbox.finish() { firstError = firstError ?? error }
                delivered += outbox.delivered
                undelivered += outbox.undelivered
            } catch {
                for (_, entries) in claimed.toSend {
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
