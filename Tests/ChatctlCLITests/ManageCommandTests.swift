import Testing
@testable import ChatctlCLI

/// The dialog, message and user commands refuse bad input before any network or
/// session: one line saying what was wrong, the usage, exit 2.
@Suite struct ManageCommandTests {
    static let id = "6b0db887c4ca891d2141e1cb"

    @Test(arguments: [
        (["edit", "nothex", "text"], "chatctl: invalid value 'nothex' for MESSAGE_ID; expected a message's 24-hex id (history --ids shows it)"),
        (["edit", id, " ", "  "], "chatctl: TEXT is empty: nothing to put in its place"),
        (["edit", id], "chatctl: missing argument TEXT"),
        (["delete", id + "0"], "chatctl: invalid value '\(id)0' for MESSAGE_ID; expected a message's 24-hex id (history --ids shows it)"),
        (["delete", "x\u{1B}[2J"], "chatctl: invalid value 'x\\u{1B}[2J' for MESSAGE_ID; expected a message's 24-hex id (history --ids shows it)"),
        (["users", "--per-page", "101"], "chatctl: invalid value '101' for option '--per-page'; expected a whole number from 1 to 100"),
        (["users", "--page", "0"], "chatctl: invalid value '0' for option '--page'; expected a whole number from 1 to 1000000"),
        (["dialogs", "rename", "ops", " "], "chatctl: NAME needs a name"),
        (["dialogs", "rename", "ops", "evil\u{1B}[31m"], "chatctl: NAME may not contain control characters"),
        (["dialogs", "add", "ops"], "chatctl: missing argument USERS"),
        (["dialogs", "add", "ops", ",@"], "chatctl: name at least one user, like @alice or @alice,@bob"),
        (["dialogs", "remove", "ops", ","], "chatctl: name at least one user, like @alice or @alice,@bob"),
        (["dialogs", "create", "--group", ""], "chatctl: --group needs a name"),
        (["dialogs", "create", "--private", "@bob", "--with", "@carol"], "chatctl: --with goes with --group"),
        (["dialogs", "create"], "chatctl: give either --private @LOGIN or --group NAME [--with @A,@B]"),
        (["dialogs", "delete"], "chatctl: missing argument DIALOG"),
    ])
    func badInputIsAUsageError(arguments: [String], firstLine: String) {
        expectUsageError(arguments, firstLine: firstLine)
    }

    /// A query that cannot be a login is refused before the session is even looked for.
    @Test func aBadLoginQueryIsInvalidInput() {
        let (status, io) = runChatctl(["users", "@a@b"])
        #expect(status == 2)
        #expect(io.err == "chatctl: '@a@b' is not a login (write @ and a login, like @alice)\n")
    }

    @Test(arguments: [
        (["@alice,@bob"], ["alice", "bob"]),
        (["@alice", "bob,", " @carol ,@alice"], ["alice", "bob", "carol"]),
        ([",", "@"], []),
    ])
    func loginLists(words: [String], logins: [String]) {
        #expect(LoginList.parse(words) == logins)
    }

    @Test func dialogsHelpListsItsSubcommands() {
        let (status, io) = runChatctl(["dialogs", "--help"])
        #expect(status == 0)
        #expect(io.out.hasSuffix(Self.dialogsSubcommands))
    }

    /// Help for the commands that may fall back when chat is unreachable says so.
    @Test(arguments: [["dialogs", "create"], ["dialogs", "add"]])
    func announcingCommandsSayWhatHappensWithoutChat(path: [String]) {
        let (status, io) = runChatctl(["help"] + path)
        #expect(status == 0)
        let text = io.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("if chat cannot be reached"))
        #expect(text.contains("with a warning (exit 0)"))
    }

    static let dialogsSubcommands = """
    SUBCOMMANDS:
      create                  Create a private or a group dialog.
      show                    Show one dialog in full, its occupants by name.
      rename                  Rename a group dialog.
      add                     Add people to a group dialog.
      remove                  Remove people from a group dialog.
      leave                   Leave a group dialog.
      delete                  Delete a dialog, for you or for everyone.
      mute                    Mute a dialog: no notifications of its messages.
      unmute                  Unmute a dialog: notifications of its messages again.

    EXAMPLES:
      # Your dialogs, newest activity first
      chatctl dialogs

      # Only groups, at most 10
      chatctl dialogs --type group -n 10

      # From the cache, without the network
      chatctl dialogs --offline

      # Every dialog as a QuickBlox dialog object
      chatctl dialogs --json

      See 'chatctl help dialogs <subcommand>' for detailed help.

    """
}
