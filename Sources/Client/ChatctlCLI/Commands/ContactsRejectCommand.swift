import CommandLineKit

/// `chatctl contacts reject USER` (`ContactsCommand.change`).
struct ContactsRejectCommand: Command {
    static let configuration = CommandConfiguration(
        name: "reject",
        abstract: "Refuse someone's contact request.",
        discussion: "They are told, and do not see when you are online; they may ask again.",
        examples: [
            Example("Refuse mallory's request", "chatctl contacts reject @mallory"),
            Example("The same, printing what is left as JSON", "chatctl contacts reject @mallory --json"),
        ])

    @Argument("USER", help: ContactsCommand.userHelp)
    var user: String
    @Flag("json", help: ContactsCommand.changedJSONHelp)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        try ContactsCommand.change(.reject, user, json: json, context: context)
    }
}
