import CommandLineKit
import MessageCache
import Messaging

/// `chatctl dialogs create`: a private dialog with one user, or a named group.
struct DialogsCreateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "create",
        abstract: "Create a private or a group dialog.",
        discussion: "For example: chatctl dialogs create --private @bob, or chatctl dialogs create --group ops --with @alice,@bob")

    @Option("private", metavar: "@LOGIN", help: "The other user of a private dialog.")
    var `private`: String?
    @Option("group", metavar: "NAME", help: "The name of a new group dialog.")
    var group: String?
    @Option("with", metavar: "@A,@B", help: "The group's other members, comma-separated.")
    var with: String?
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(offline: false)
        let dialog: CachedDialog
        switch (`private`, group) {
        case (let peer?, nil):
            guard with == nil else { throw context.usage("--with goes with --group") }
            let login = peer.hasPrefix("@") ? String(peer.dropFirst()) : peer
            dialog = try messaging { () throws(MessagingError) in
                try service.resolve(.user(login: login), offline: false, createPrivate: true)
            }
        case (nil, let name?):
            guard !name.isEmpty else { throw context.usage("--group needs a name") }
            let logins = (with ?? "").split(separator: ",").map { $0.trimmingPrefix("@").trimmingSpaces() }.filter { !$0.isEmpty }
            dialog = try messaging { () throws(MessagingError) in
                let ids = try logins.map { login throws(MessagingError) in try service.user(login: login, offline: false).id }
                return try service.createDialog(type: .group, name: name, occupants: ids)
            }
        default:
            throw context.usage("give either --private @LOGIN or --group NAME [--with @A,@B]")
        }
        if json {
            context.io.writeOut(dialog.rawJSON + "\n")
        } else {
            context.io.writeOut("\(MessagingService.typeName(dialog.type).capitalizedFirst) dialog \(dialog.id)\(dialog.name.isEmpty ? "" : " '\(TerminalText.sanitize(dialog.name, keepNewlines: false))'").\n")
        }
        return .ok
    }
}
