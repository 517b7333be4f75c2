import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl dialogs delete DIALOG [--everyone]`.
struct DialogsDeleteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "delete",
        abstract: "Delete a dialog, for you or for everyone.",
        discussion: "Without --everyone the dialog goes for you only (on the sandbox you leave it). With --everyone it goes for every occupant, messages included; only its owner may.",
        examples: [
            Example("Delete the dialog with bob, for you only", "chatctl dialogs delete @bob"),
            Example("Delete ops for everyone, messages included (its owner only)", "chatctl dialogs delete ops --everyone"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Flag("everyone", help: "Delete it for every occupant (the owner only).")
    var everyone: Bool
    @Flag("json", help: "Print the server's answer as JSON.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(source: .server)
        let current = try service.currentDialog(dialog)
        let result = try service.deleteDialog(current, everyone: everyone)
        context.tellChange("deleted \(DialogsShowCommand.label(current, service)) for \(everyone ? "everyone" : "you")",
                           json: json ? JSONOutput.line(result.json) : nil)
        return .ok
    }
}
