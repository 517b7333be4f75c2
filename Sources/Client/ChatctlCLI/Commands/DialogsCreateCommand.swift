import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl dialogs create`: a private dialog with one user, or a named group.
struct DialogsCreateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "create",
        abstract: "Create a private or a group dialog.",
        discussion: """
            The other occupants are told over chat, as the QuickBlox apps tell them; if chat cannot be reached \
            the dialog is still created, with a warning (exit 0).
            """,
        examples: [
            Example("A private dialog with bob", "chatctl dialogs create --private @bob"),
            Example("A group called ops, with alice and bob in it", "chatctl dialogs create --group ops --with @alice,@bob"),
            Example("A group with nobody else yet, printed as JSON (its id is _id)", "chatctl dialogs create --group notes --json"),
        ])

    @Option("private", metavar: "@LOGIN", help: "The other user of a private dialog.")
    var `private`: String?
    @Option("group", metavar: "NAME", help: "The name of a new group dialog (a warning if you have one so named).")
    var group: String?
    @Option("with", metavar: "@A,@B", help: "The group's other members, comma-separated.")
    var with: String?
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        switch (`private`, group) {
        case (_?, nil):
            guard with == nil else { throw context.usage("--with goes with --group") }
        case (nil, let name?):
            try DialogsRenameCommand.check(name: name, option: "--group", context: context)
        default:
            throw context.usage("give either --private @LOGIN or --group NAME [--with @A,@B]")
        }
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let dialog: CachedDialog
        let created: Bool
        var namesakes: [String] = []
        if let peer = `private` {
            let login = peer.hasPrefix("@") ? String(peer.dropFirst()) : peer
            (dialog, created) = try service.privateDialog(login: login, source: .server, create: true)
        } else {
            let ids = try service.users(logins: try context.logins(with.map { [$0] } ?? [], allowNone: true)).map(\.id)
            // Group names need not be unique; a second one is made, and said.
            namesakes = try group.map { name throws(Failure) in try service.namesakes(of: name, source: .server) } ?? []
            dialog = try service.createDialog(type: .group, name: group, occupants: ids)
            created = true
        }
        if !namesakes.isEmpty {
            let count = namesakes.count == 1 ? "a dialog" : "\(namesakes.count) dialogs"
            context.io.warn("warning: you already have \(count) named '\(group ?? "")' (below); the new one is \(dialog.id): name either by its id",
                            details: namesakes)
        }
        // A private dialog names the other person, as a group its name; its id for the next commands.
        let label = dialog.type == .private ? DialogsShowCommand.label(dialog, service)
            : "the \(MessagingService.typeName(dialog.type)) dialog" + (dialog.name.isEmpty ? "" : " '\(TerminalText.sanitize(dialog.name, newlines: .asSpaces))'")
        context.tellChange(created ? "created \(label), id \(dialog.id)" : "\(label) already exists, id \(dialog.id)",
                           json: json ? dialog.rawJSON : nil)
        if created { context.announce(DialogAnnouncement(dialog: dialog, me: service.me), messaging: session) }
        return .ok
    }
}
