import CommandLineKit

/// `chatctl contacts remove USER` (`ContactsCommand.change`).
struct ContactsRemoveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "remove",
        abstract: "Take someone out of your contacts.",
        discussion: "Neither of you sees the other's presence any more, and they are told; a request of theirs or yours waiting is dropped too.",
        examples: [
            Example("Take bob out of your contacts", "chatctl contacts remove @bob"),
            Example("The same, printing what is left as JSON", "chatctl contacts remove @bob --json"),
        ])

    @Argument("USER", help: ContactsCommand.userHelp)
    var user: String
    @Flag("json", help: ContactsCommand.changedJSONHelp)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        try ContactsCommand.change(.remove, user, json: json, context: context)
    }
}
