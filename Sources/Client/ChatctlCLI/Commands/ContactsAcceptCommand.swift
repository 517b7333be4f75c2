import CommandLineKit

/// `chatctl contacts accept USER` (`ContactsCommand.change`).
struct ContactsAcceptCommand: Command {
    static let configuration = CommandConfiguration(
        name: "accept",
        abstract: "Accept someone's contact request.",
        discussion: "They see when you are online from now on, and you ask to see them back (as QuickBlox's SDKs do); their app grants that by itself (chatctl when it next connects), and you are contacts both ways.",
        examples: [
            Example("Accept alice's request", "chatctl contacts accept @alice"),
            Example("The same, naming her by full name", "chatctl contacts accept 'Alice Smith'"),
        ])

    @Argument("USER", help: ContactsCommand.userHelp)
    var user: String
    @Flag("json", help: ContactsCommand.changedJSONHelp)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        try ContactsCommand.change(.accept, user, json: json, context: context)
    }
}
