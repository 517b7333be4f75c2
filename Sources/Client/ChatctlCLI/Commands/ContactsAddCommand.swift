import CommandLineKit

/// `chatctl contacts add USER` (`ContactsCommand.change`).
struct ContactsAddCommand: Command {
    static let configuration = CommandConfiguration(
        name: "add",
        abstract: "Ask someone to be your contact.",
        discussion: "USER goes into your contact list and is asked to let you see when they are online (as QuickBlox's SDKs ask); 'chatctl contacts' says 'requested' until they answer, and 'listen' tells their answer.",
        examples: [
            Example("Ask bob to be your contact", "chatctl contacts add @bob"),
            Example("Ask the user with id 1042, and print them as JSON", "chatctl contacts add 1042 --json"),
        ])

    @Argument("USER", help: ContactsCommand.userHelp)
    var user: String
    @Flag("json", help: ContactsCommand.changedJSONHelp)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        try ContactsCommand.change(.add, user, json: json, context: context)
    }
}
