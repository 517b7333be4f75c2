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
        let conversations = try context.conversations(offline: true)
        let entries = try messaging { () throws(MessagingError) in try conversations.pendingOutbox() }
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

    private func flush() throws -> ExitCode {
        let conversations = try context.conversations(offline: false)
        let result = try messaging { () throws(MessagingError) in try conversations.flushOutbox(owner: Int(getpid())) }
        let sent = result.delivered + result.alreadyThere
        if context.wantsJSON {
            context.io.writeOut(JSONOutput.line(.object(["delivered": .int(sent), "undelivered": .int(result.failed)])))
        } else if sent > 0 || result.failed == 0 {
            context.io.writeErr("chatctl: delivered \(sent) message\(sent == 1 ? "" : "s") from the outbox\n")
        }
        if result.failed > 0, let error = result.firstError {
            throw CommandError.messaging(MessagingError(.undelivered(result.failed),
                "\(result.failed) message\(result.failed == 1 ? "" : "s") still not delivered (\(error.message))",
                hint: "they stay in the outbox; try again later"))
        }
        return .ok
    }
}
