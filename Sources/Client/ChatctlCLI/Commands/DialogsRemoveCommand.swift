import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl dialogs remove DIALOG @a`: occupants out of a group.
struct DialogsRemoveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "remove",
        abstract: "Remove people from a group dialog.",
        discussion: "Removing others is the group owner's (the server decides); to remove yourself, use 'chatctl dialogs leave'.",
        examples: [
            Example("Take dave out of ops (its owner only)", "chatctl dialogs remove ops @dave"),
            Example("Take two people out, and print the group as JSON", "chatctl dialogs remove ops @carol,@dave --json"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Arguments("USERS", help: "Who to remove: @login, comma- or space-separated.", isOptional: false)
    var words: [String]
    @Flag("json", help: "Print the updated dialog as JSON.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let logins = try context.logins(words)
        let service = try context.messagingService(source: .server)
        let current = try context.currentGroup(dialog, service: service, hint: "to stop seeing it, use 'chatctl dialogs delete'")
        let users = try context.users(logins, service: service)
        if users.contains(where: { $0.id == service.me }) {
            throw context.usage("to remove yourself, use 'chatctl dialogs leave'")
        }
        if let stranger = users.first(where: { !current.occupantIDs.contains($0.id) }) {
            throw Failure(
                .invalidInput, "@\(stranger.login) is not in \(DialogsShowCommand.label(current))",
                hint: "'chatctl dialogs show' lists who is")
        }
        let updated = try service.removeOccupants(users.map(\.id), from: current)
        if json {
            context.io.writeOut(updated.rawJSON + "\n")
        } else {
            let who = users.map { "@" + TerminalText.sanitize($0.login, newlines: .asSpaces) }.joined(separator: ", ")
            context.io.writeOut("Removed \(who) from \(DialogsShowCommand.label(updated)).\n")
        }
        return .ok
    }
}
