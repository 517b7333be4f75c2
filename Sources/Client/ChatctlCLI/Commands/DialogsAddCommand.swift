import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl dialogs add DIALOG @a,@b`: new occupants of a group, told over chat.
struct DialogsAddCommand: Command {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Add people to a group dialog.",
        discussion: """
            Everyone in the group is told over chat, as the \
            QuickBlox apps tell them; if chat cannot be reached the people are still added, with a warning (exit 0). \
            Someone already in the group is skipped.
            """,
        examples: [
            Example("Add carol and dave to ops (everyone in it is told)", "chatctl dialogs add ops @carol,@dave"),
            Example("The same, space-separated; print the group as JSON", "chatctl dialogs add ops @carol @dave --json"),
        ])

    let members = MembershipArguments(verb: "add")

    func run(_ context: CommandContext) throws -> ExitCode {
        let logins = try context.logins(members.words)
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let change = try service.planAddition(of: logins, to: members.dialog)
        for user in change.alreadyIn {
            context.io.writeErr("chatctl: @\(TerminalText.sanitize(user.login, newlines: .asSpaces)) is already in \(DialogsShowCommand.label(change.group))\n")
        }
        guard !change.users.isEmpty else {
            // Nothing changed: the group as it is, or the lines above alone.
            if members.json { context.io.writeOut(change.group.rawJSON + "\n") }
            return .ok
        }
        let (updated, added) = try service.add(change)
        context.showMembershipChange(updated, "added", change.users, "to", json: members.json)
        context.announce(DialogAnnouncement(dialog: updated, me: service.me, added: added), messaging: session)
        return .ok
    }
}
