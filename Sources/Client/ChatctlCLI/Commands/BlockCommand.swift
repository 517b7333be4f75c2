import CommandLineKit
import Messaging

/// `chatctl block USER`: their messages, presence and requests stop reaching the user, as the
/// QuickBlox apps block (a privacy list, docs/protocol.md §7).
struct BlockCommand: Command {
    static let configuration = CommandConfiguration(
        name: "block",
        abstract: "Block a user: their messages no longer reach you.",
        discussion: """
            Blocks as the QuickBlox apps do, with a privacy list on the chat server: your default \
            list (whichever app made it), else one named 'public', made and set as your default and \
            active list. Its other rules are kept. A blocked user's private messages are refused \
            (they are told, 'chatctl send' exits 5), and their group messages and presence do not \
            reach you. Blocking yourself, or someone blocked already, is refused (exit 2) and \
            changes nothing. A line on stderr says what changed.
            """,
        examples: [
            Example("Block bob", "chatctl block @bob"),
            Example("Block user 12345", "chatctl block 12345"),
        ])

    @Argument("USER", help: SharedHelp.user)
    var user: String

    func run(_ context: CommandContext) throws -> ExitCode {
        try context.changeBlock(.block, of: user)
    }
}

/// `chatctl unblock USER`: the rules that block them taken out of the list, the rest kept.
struct UnblockCommand: Command {
    static let configuration = CommandConfiguration(
        name: "unblock",
        abstract: "Unblock a user, however they were blocked.",
        discussion: """
            Takes the rules that block USER out of your privacy list and keeps the rest; a list \
            left with no rules is removed. Unblocking someone not blocked is refused (exit 2) and \
            changes nothing. A line on stderr says what changed.
            """,
        examples: [
            Example("Unblock bob", "chatctl unblock @bob"),
            Example("Unblock user 12345, blocked by another app", "chatctl unblock 12345"),
        ])

    @Argument("USER", help: SharedHelp.user)
    var user: String

    func run(_ context: CommandContext) throws -> ExitCode {
        try context.changeBlock(.unblock, of: user)
    }
}
