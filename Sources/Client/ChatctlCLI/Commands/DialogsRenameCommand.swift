import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl dialogs rename DIALOG NAME`: a group's new name.
struct DialogsRenameCommand: Command {
    static let configuration = CommandConfiguration(
        name: "rename",
        abstract: "Rename a group dialog.",
        discussion: "Groups only (a private dialog has no name of its own). The server decides who may: on the sandbox, the group's owner.",
        examples: [
            Example("Rename the group ops", "chatctl dialogs rename ops 'ops team'"),
            Example("Rename it, and print the renamed dialog as JSON", "chatctl dialogs rename ops ops-2026 --json"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Argument("NAME", help: "The new name.")
    var name: String
    @Flag("json", help: "Print the renamed dialog as JSON.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        try Self.check(name: name, option: "NAME", context: context)
        let service = try context.messagingService(source: .server)
        let current = try service.currentDialog(dialog)
        let renamed = try service.renameDialog(current, to: name)
        context.tellChange("renamed \(DialogsShowCommand.label(current)) to '\(TerminalText.sanitize(renamed.name, newlines: .asSpaces))'",
                           json: json ? renamed.rawJSON : nil)
        return .ok
    }

    /// A dialog name: not blank, no control characters (it is shown on others' terminals).
    static func check(name: String, option: String, context: CommandContext) throws {
        if name.allSatisfy(\.isWhitespace) { throw context.usage("\(option) needs a name") }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw context.usage("\(option) may not contain control characters")
        }
    }
}
