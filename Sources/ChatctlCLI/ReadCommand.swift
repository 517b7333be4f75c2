import CommandLineKit
import Diagnostics
import Messaging

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
            """)

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Flag("no-chat", help: "Mark read over REST only; send no markers.")
    var noChat: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let target = try service.resolve(dialog, source: .server, createPrivate: false)
        let unread = try service.unreadMessages(dialogID: target.id)
        let marked = try ReadMarking(session: session, context: context, overChat: !noChat).mark(unread.messages, dialogID: target.id)
        let left = max(0, unread.count - marked)
        try service.noteUnreadCount(left, dialogID: target.id)
        var report = "chatctl: \(marked) message\(marked == 1 ? "" : "s") marked read"
        if left > 0 { report += "; the server still counts \(left) unread that were not found among the last 10,000" }
        context.io.writeErr(report + "\n")
        return .ok
    }
}
