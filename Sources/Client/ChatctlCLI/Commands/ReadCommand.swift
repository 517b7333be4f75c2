import CommandLineKit
import Diagnostics
import Messaging
import Presentation
import QuickBloxAPI
import ChatIdentifiers

/// `chatctl read DIALOG`: marks what others sent in a dialog read.
struct ReadCommand: Command {
    static let configuration = CommandConfiguration(
        name: "read",
        abstract: "Mark a dialog's messages read.",
        discussion: """
            Marks every message in DIALOG that others sent and you have not read \
            as read on the server, looking back at most 10,000 messages, then \
            tells their senders with a 'displayed' marker over chat. Chat is \
            connected only when there is such a marker to send; if it cannot be \
            reached, the messages stay marked read and a warning says so.
            """,
        examples: [
            Example("Mark what others sent in ops read, and tell them", "chatctl read ops"),
            Example("Over REST only: no read receipts over chat", "chatctl read @bob --no-chat"),
            Example("How many were marked, as JSON", "chatctl read ops --json"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Flag("no-chat", help: "Mark read over REST only; send no markers.")
    var noChat: Bool
    @Flag("json", help: "Print the dialog's id and how many were marked read, as JSON.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let target = try service.resolve(dialog, source: .server, createPrivate: false)
        let unread = try service.unreadMessages(dialogID: target.id)
        let marked = try ReadMarking(session: session, context: context, overChat: !noChat).mark(unread.messages, dialogID: target.id)
        let left = max(0, unread.count - marked)
        try service.noteUnreadCount(left, dialogID: target.id)
        if json {
            context.io.writeOut(JSONOutput.line(.object([
                "dialog_id": .string(target.id.rawValue), "marked_read": .int(marked), "unread_left": .int(left),
            ])))
            return .ok
        }
        var report = "marked \(marked) message\(marked == 1 ? "" : "s") read in \(DialogsShowCommand.label(target, service))"
        if left > 0 { report += "; the server still counts \(left) unread that were not found among the last 10,000" }
        context.tellChange(report, json: nil)
        return .ok
    }
}
