import CommandLineKit
import Messaging
import Presentation

/// `chatctl dialogs mute DIALOG`: no notifications of the dialog, on every device.
struct DialogsMuteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "mute",
        abstract: "Mute a dialog: no notifications of its messages.",
        discussion: """
            Turns the dialog's notifications off on the server (for you only, on every device), and \
            'chatctl dialogs' marks it muted. Its messages still arrive and count as unread; \
            'chatctl dialogs unmute' turns them on again.
            """,
        examples: [
            Example("No notifications of ops's messages", "chatctl dialogs mute ops"),
            Example("Mute the dialog with bob, and print it with \"muted\"", "chatctl dialogs mute @bob --json"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Flag("json", help: "Print the dialog as JSON, with \"muted\".")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        try Self.set(muted: true, dialog, json: json, context)
    }

    /// What mute and unmute share: the dialog named, its setting changed, what the server holds shown.
    static func set(muted: Bool, _ reference: DialogReference, json: Bool, _ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(source: .server)
        let named = try service.resolve(reference, source: .server, createPrivate: false)
        let changed = try service.setMuted(muted, named)
        if json {
            context.io.writeOut(JSONOutput.dialog(changed) + "\n")
        } else {
            context.io.writeOut("\(changed.muted ? "Muted" : "Unmuted") \(DialogsShowCommand.label(changed)).\n")
        }
        return .ok
    }
}
