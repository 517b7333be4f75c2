import CommandLineKit
import MessageCache
import Messaging
import QuickBloxAPI

/// `chatctl outbox` lists undelivered messages.
struct OutboxCommand: Command {
    static let configuration = CommandConfiguration(
        name: "outbox",
        abstract: "List messages not yet delivered.",
        subcommands: [OutboxFlushCommand.self])

    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(offline: true)
        let entries = try messaging { () throws(MessagingError) in try service.pendingOutbox() }
        if json {
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
}
