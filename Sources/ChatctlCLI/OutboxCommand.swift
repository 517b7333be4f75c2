#if canImport(Glibc)
import Glibc
#endif
import MessageCache
import Messaging
import QuickBloxAPI

/// `chatctl outbox` lists undelivered messages; `outbox flush` delivers them.
struct OutboxCommand {
    let context: CommandContext

    func run() throws -> ExitCode {
        if context.parsed.path.last == "flush" { return try flush() }
        let service = try context.messagingService(offline: true)
        let entries = try messaging { () throws(MessagingError) in try service.pendingOutbox() }
        if context.wantsJSON {
            let objects = entries.map { e -> String in
                JSONOutput.text(.object([
                    "client_message_id": .string(e.clientMessageID), "chat_dialog_id": .string(e.dialogID),
                    "message": .string(e.text), "created_at": .string(TimeText.iso8601(Double(e.createdAt))),
                    "attempts": .int(e.attempts), "last_error": e.lastError.map(JSONValue.string) ?? .null,
                ]))
            }
            context.io.writeOut(JSONOutput.array(ofRaw: objects))
            return .ok
        }
        if entries.isEmpty { context.io.writeErr("chatctl: the outbox is empty\n"); return .ok }
        var rows = [["QUEUED", "DIALOG", "TRIES", "MESSAGE"]]
        for e in entries {
            rows.append([TimeText.format(Double(e.createdAt), "%Y-%m-%d %H:%M:%S", utc: false), e.dialogID, String(e.attempts),
                         TerminalText.sanitize(e.text, keepNewlines: false)])
        }
        context.io.writeOut(Table.render(rows, width: context.terminalWidth))
        return .ok
    }

    /// Entries the server already has are only removed; the rest go again
    /// over chat under their own ids, so a first attempt still on its way is
    /// not stored twice.
    private func flush() throws -> ExitCode {
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
        if context.wantsJSON {
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
