import Testing
@testable import ChatctlCLI
import MessageCache

/// What a mistaken command line is told, before any request: how the command is said
/// (its options and examples), the command meant, a unit a length needs.
@Suite struct UsageGuidanceTests {
    /// `dialogs create --group team bob carol`: members are no arguments. The error says the
    /// command takes only options, and what follows shows `--with` and an example of it.
    @Test func createWithBareMembersShowsHowMembersAreGiven() {
        let (status, io) = runChatctl(["dialogs", "create", "--group", "team", "bob", "carol"])
        #expect(status == 2 && io.out.isEmpty)
        #expect(io.err == """
            chatctl: unexpected argument 'bob': 'chatctl dialogs create' takes only options
            usage: chatctl dialogs create [--private <@LOGIN>] [--group <NAME>]
                                          [--with <@A,@B>] [--json]
            examples: chatctl dialogs create --private @bob
                      chatctl dialogs create --group ops --with @alice,@bob

            """)
    }

    /// A usage line that once was a bare `[<options>]` spells every option out, wrapped.
    @Test func aUsageErrorNeverShowsABareOptionsWord() {
        let (status, io) = runChatctl(["login", "--no-such-option"])
        #expect(status == 2)
        #expect(!io.err.contains("[<options>]"))
        #expect(io.err.contains("[--login <LOGIN>]") || io.err.contains("[--login <"), "\(io.err)")
        #expect(io.err.contains("\nexamples: chatctl login "))
    }

    /// `me` is the user's own record; `profile`, its old name, still runs it (scripts), and its
    /// help is `me`'s. "profile" now means only the config profiles.
    @Test func theOldProfileNameStillRuns() {
        let (oldStatus, old) = runChatctl(["profile", "--help"])
        let (newStatus, new) = runChatctl(["me", "--help"])
        #expect(oldStatus == 0 && newStatus == 0)
        #expect(old.out == new.out && new.out.contains("USAGE: chatctl me [--json] [<subcommand>]"))
        let (_, set) = runChatctl(["profile", "set"])
        #expect(set.err.hasPrefix("chatctl: nothing to change"), "\(set.err)")
        let (_, root) = runChatctl(["--help"])
        #expect(root.out.contains("\n  me ") && !root.out.contains("\n  profile "), "the old name is shown nowhere")
    }

    @Test(arguments: [
        (["profile", "name", "Alice L"], "chatctl: unknown command 'name' (did you mean 'chatctl me set --full-name'?)"),
        (["me", "nmae", "Alice L"], "chatctl: unknown command 'nmae' (did you mean 'chatctl me set --full-name'?)"),
        (["me", "password"], "chatctl: unknown command 'password' (did you mean 'chatctl me set --password'?)"),
        (["me", "remove"], "chatctl: unknown command 'remove' (did you mean 'chatctl me delete'?)"),
        (["me", "st"], "chatctl: unknown command 'st' (did you mean 'set'?)"),
        (["whoami"], "chatctl: unknown command 'whoami' (did you mean 'chatctl me'?)"),
        (["profle"], "chatctl: unknown command 'profle' (did you mean 'me'?)"),
    ])
    func aWordMeantForAnotherCommandSuggestsIt(arguments: [String], firstLine: String) {
        expectUsageError(arguments, firstLine: firstLine)
    }

    /// `--for 8` would mute for eight seconds: a unit is required, and the error offers them.
    @Test func aMuteLengthNeedsItsUnit() {
        expectUsageError(["dialogs", "mute", "friends", "--for", "8"],
                         firstLine: "chatctl: invalid value '8' for option '--for': give its unit: 8m, 8h or 8d (8s for seconds)")
        expectUsageError(["dialogs", "mute", "friends", "--for", "soon"],
                         firstLine: "chatctl: invalid value 'soon' for option '--for'; expected a length with its unit: 45m, 8h, 7d, 2h30m")
        #expect(MuteLength(argument: "8h")?.seconds == 28_800)
        #expect(MuteLength(argument: "2h30m")?.seconds == 9_000)
        #expect(MuteLength(argument: "8s")?.seconds == 8)
        #expect(MuteLength(argument: "8") == nil)
    }

    /// A long message to a group asks first only when a person typed it: both stdin and stderr
    /// terminals, a group, more than one message, no --yes.
    @Test(arguments: [
        (2, DialogType.group, false, true, true, true),
        (2, DialogType.publicGroup, false, true, true, true),
        (1, DialogType.group, false, true, true, false),
        (2, DialogType.private, false, true, true, false),
        (2, DialogType.group, true, true, true, false),
        (2, DialogType.group, false, false, true, false),
        (2, DialogType.group, false, true, false, false),
    ])
    func whenALongMessageIsAskedAbout(count: Int, type: DialogType, yes: Bool, stdin: Bool, stderr: Bool, asks: Bool) {
        #expect(SendCommand.asksBeforeSending(count, to: type, yes: yes, stdinIsTerminal: stdin, stderrIsTerminal: stderr) == asks)
    }
}
