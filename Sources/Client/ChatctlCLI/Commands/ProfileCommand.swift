import CommandLineKit
import Diagnostics
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl profile`: your own user as the server has it.
struct ProfileCommand: Command {
    static let configuration = CommandConfiguration(
        name: "profile",
        abstract: "Show your profile: login, name, email, phone, website, tags, avatar.",
        discussion: """
            'chatctl profile set' changes it, 'chatctl profile delete' removes your account. \
            (The accounts kept side by side with --profile NAME are listed by 'chatctl profiles'.)
            """,
        subcommands: [ProfileSetCommand.self, ProfileDeleteCommand.self],
        examples: [
            Example("Your profile", "chatctl profile"),
            Example("Your QuickBlox user object, e.g. for your id", "chatctl profile --json"),
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
