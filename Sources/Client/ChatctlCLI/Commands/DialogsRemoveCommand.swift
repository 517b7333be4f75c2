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
        let change = try service.planRemoval(of: logins, from: dialog)
        if change.includesYou { throw context.usage("to remove yourself, use 'chatctl dialogs leave'") }
        context.showMembershipChange(try service.remove(change), "Removed", change.users, "from", json: json)
        return .ok
    }
}
