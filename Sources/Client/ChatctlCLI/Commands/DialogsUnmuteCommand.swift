import CommandLineKit
import Messaging

/// `chatctl dialogs unmute DIALOG`: the dialog notifies again.
struct DialogsUnmuteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "unmute",
        abstract: "Unmute a dialog: notifications of its messages again.",
        discussion: "Turns the dialog's notifications on again on the server, undoing 'chatctl dialogs mute'.",
        examples: [
            Example("Notifications of ops's messages again", "chatctl dialogs unmute ops"),
            Example("Unmute the dialog with bob, and print it with \"muted\"", "chatctl dialogs unmute @bob --json"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Flag("json", help: "Print the dialog as JSON, with \"muted\".")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        try DialogsMuteCommand.set(muted: false, dialog, json: json, context)
    }
}
