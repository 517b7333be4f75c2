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

    let members = MembershipArguments(verb: "remove")

    func run(_ context: CommandContext) throws -> ExitCode {
        let logins = try context.logins(members.words)
        let service = try context.messagingService(source: .server)
        let change = try service.planRemoval(of: logins, from: members.dialog)
        if change.includesYou { throw context.usage("to remove yourself, use 'chatctl dialogs leave'") }
        context.showMembershipChange(try service.remove(change), "removed", change.users, "from", json: members.json)
        return .ok
    }
}
