import CommandLineKit
import Diagnostics
import MessageCache
import Messaging

/// `chatctl dialogs leave DIALOG`: take yourself out of a group.
struct DialogsLeaveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "leave",
        abstract: "Leave a group dialog.",
        discussion: "You stop being an occupant (the others see you go) and the dialog leaves your cache. A private dialog cannot be left; 'chatctl dialogs delete' removes it for you.",
        examples: [
            Example("Leave the group ops", "chatctl dialogs leave ops"),
            Example("Leave it, and print the dialog as the server left it", "chatctl dialogs leave ops --json"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Flag("json", help: "Print the dialog as the server left it, as JSON.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(source: .server)
        let current = try service.currentDialog(dialog)
        guard current.type != .private else {
            throw Failure(.invalidInput, "a private dialog cannot be left",
                                                        hint: "'chatctl dialogs delete' removes it for you")
        }
        guard current.occupantIDs.contains(service.me) else {
            throw Failure(.invalidInput, "you are not in \(DialogsShowCommand.label(current))")
        }
        let left = try service.leaveDialog(current)
        context.tellChange("left \(DialogsShowCommand.label(current))", json: json ? left.rawJSON : nil)
        return .ok
    }
}
