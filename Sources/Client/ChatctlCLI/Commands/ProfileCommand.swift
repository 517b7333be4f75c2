import CommandLineKit
import Diagnostics
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl me`: your own user as the server has it. Once `chatctl profile`, a name kept as
/// an alias: "profile" now means only the config profiles of `--profile` and `chatctl profiles`.
struct ProfileCommand: Command {
    static let configuration = CommandConfiguration(
        name: "me",
        abstract: "Show your user: login, name, email, phone, website, tags, avatar.",
        discussion: """
            'chatctl me set' changes it, 'chatctl me delete' removes your account. \
            (The config profiles chosen with --profile NAME, each an account of its own, are listed \
            by 'chatctl profiles'.) 'chatctl profile' is the old name of this command, still understood.
            """,
        subcommands: [ProfileSetCommand.self, ProfileDeleteCommand.self],
        examples: [
            Example("Who you are on the server", "chatctl me"),
            Example("Your QuickBlox user object, e.g. for your id", "chatctl me --json"),
        ],
        aliases: ["profile"],
        meanings: [
            "name": "set --full-name", "full-name": "set --full-name", "rename": "set --full-name",
            "email": "set --email", "phone": "set --phone", "website": "set --website", "tags": "set --tags",
            "avatar": "set --avatar", "picture": "set --avatar", "password": "set --password", "passwd": "set --password",
            "edit": "set", "update": "set", "change": "set", "remove": "delete", "rm": "delete",
        ])

    @Flag("json", help: "Print your QuickBlox user object.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let user = try context.messagingService(source: .server).profile()
        Self.show(user, json: json, context)
        return .ok
    }

    /// The user as a table of fields, or as its JSON object (what the server sent).
    static func show(_ user: QBUser, json: Bool, _ context: CommandContext) {
        if json {
            context.io.writeOut(JSONOutput.line(.object(user.raw)))
            return
        }
        let fields: [(String, String?)] = [
            ("ID", String(user.id)), ("Login", user.login), ("Name", user.fullName), ("Email", user.email),
            ("Phone", user.phone), ("Website", user.website), ("Tags", user.tags.isEmpty ? nil : user.tags.joined(separator: ", ")),
            ("Custom data", user.customData), ("Avatar", user.blobID.map { "blob \($0)" } ?? "none"),
            ("Created", user.createdAt), ("Last request", user.lastRequestAt),
        ]
        var text = ""
        for (name, value) in fields {
            guard let value, !value.isEmpty else { continue }
            let label = name + ":"
            text += label + String(repeating: " ", count: max(1, 14 - label.count)) + TerminalText.sanitize(value, newlines: .asSpaces) + "\n"
        }
        context.io.writeOut(text)
    }
}
