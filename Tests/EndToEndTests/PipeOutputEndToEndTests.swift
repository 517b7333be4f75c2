import Foundation
import Testing
import TestSupport

/// In a pipe the listings are tab-separated rows without a header, ids
/// first (docs/cli-output.md); on a terminal a long history goes through the pager.
@Suite(.serialized) struct PipeOutputEndToEndTests {
    let sandbox: SandboxProcess

    init() throws { sandbox = try SandboxProcess() }

    /// `chatctl ARGUMENTS | FILTER` through /bin/sh, in the user's environment.
    func piped(_ user: ChatUser, _ arguments: [String], into filter: String) throws -> ProcessResult {
        try user.cli.run(confined: { chatctl, arguments in
            ("/bin/sh", ["-c", "\"$0\" \"$@\" | " + filter, chatctl] + arguments)
        }, arguments)
    }

    /// Splits TSV as `awk -F'\t'` does: every field, blanks included.
    static func fields(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func usersInAPipeAreTabSeparatedRowsAndABlankNameKeepsItsColumn() throws {
        let viewer = try ChatUser("viewer", sandbox: sandbox), blank = try ChatUser("blank", sandbox: sandbox)
        // A blank full name: the column after it must not move into its place.
        #expect(try blank.run(["profile", "set", "--full-name", "", "--website", "https://example.com"]).status == 0)
        let shaped = try piped(viewer, ["users", "@" + blank.login], into: #"awk -F'\t' '{ print NF "|" $1 "|" $2 "|" $3 "|" $4 }'"#)
        #expect(shaped.status == 0, "\(shaped.stderr)")
        #expect(shaped.stdout == "6|\(blank.id)|\(blank.login)||\n", "no header, six fields, the blank one empty")

        let table = try viewer.run(["users", "@" + blank.login])
        // Blank never chatted: offline, though the viewer shares no dialog with them.
        #expect(Self.fields(table.stdout) == [[String(blank.id), blank.login, "", "", "", "offline"]])
    }

    @Test func dialogsHistoryAndSearchInAPipeStartWithIds() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "first\tline\nsecond line"]).status == 0)
        #expect(try bob.run(["send", "@" + alice.login, "an answer"]).status == 0)
        let messages = try alice.history("@" + bob.login)
        let ids = messages.compactMap { $0["_id"] as? String }
        let dialogID = try #require(messages.first?["chat_dialog_id"] as? String)

        let dialogs = try alice.run(["dialogs"])
        #expect(dialogs.status == 0, "\(dialogs.stderr)")
        let row = try #require(Self.fields(dialogs.stdout).first)
        #expect(Self.fields(dialogs.stdout).count == 1, "no header: \(dialogs.stdout)")
        #expect(row.count == 7 && row[0] == dialogID && row[1] == bob.login && row[2] == "private" && row[6] == "an answer", "\(row)")
        #expect(row[5].range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil, "ISO 8601 UTC: \(row[5])")

        let history = try alice.run(["history", "@" + bob.login])
        #expect(history.status == 0, "\(history.stderr)")
        let lines = Self.fields(history.stdout)
        #expect(lines.map { $0.count } == [7, 7], "one line a message, even the one with a line break: \(history.stdout)")
        #expect(lines.map { $0[0] } == ids)
        #expect(lines[0][2] == String(alice.id) && lines[0][4] == "sent" && lines[0][6] == "first line second line")
        #expect(lines[1][2] == String(bob.id) && lines[1][3] == bob.login && lines[1][4] == "" && lines[1][6] == "an answer")

        let search = try alice.run(["search", "answer"])
        #expect(search.status == 0, "\(search.stderr)")
        let hits = Self.fields(search.stdout)
        #expect(hits.count == 1 && hits[0].count == 7, "\(search.stdout)")
        #expect(hits.first.map { Array($0[0...2]) } == [ids[1], dialogID, bob.login])
        #expect(hits.first?[6] == "an [answer]")

        // A valid range with nothing in it: nothing on stdout, one line on stderr.
        let none = try alice.run(["history", "@" + bob.login, "--before", "2020-01-01"])
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr == "chatctl: no messages in that time range\n", "\(none.stderr)")

        // --json stays JSON in a pipe.
        #expect(try alice.run(["dialogs", "--json"]).stdout.hasPrefix("["))
    }

    /// The DIALOG column names the dialog; a pipe has its id beside the name.
    @Test func theOutboxNamesItsDialogs() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        let cache = try alice.run(["cache"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let unknown = "0123456789abcdef01234567"
        let queued = try runProcess("/usr/bin/sqlite3", [cache, """
            INSERT INTO outbox (client_message_id, dialog_id, text, created_at)
              SELECT '6b0db884edb3b3d9cddf1330', id, 'waiting', 1764460800 FROM dialogs;
            INSERT INTO outbox (client_message_id, dialog_id, text, created_at)
              VALUES ('6b0db884edb3b3d9cddf1331', '\(unknown)', 'nowhere', 1764460801);
            SELECT id FROM dialogs;
            """], timeout: 30)
        #expect(queued.status == 0, "\(queued.stderr)")
        let dialogID = queued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let piped = Self.fields(try alice.run(["outbox"]).stdout)
        #expect(piped == [
            ["6b0db884edb3b3d9cddf1330", "2025-11-30T00:00:00Z", dialogID, bob.login, "0", "to send", "waiting"],
            ["6b0db884edb3b3d9cddf1331", "2025-11-30T00:00:01Z", unknown, "", "0", "to send", "nowhere"],
        ])

        let terminal = try TmuxSession(width: 120, environment: ChatEndToEndTests.environment(alice))
        try terminal.runAtPrompt("chatctl outbox", expecting: "nowhere")
        let rows = ChatEndToEndTests.rows(try terminal.screen())
        let header = try #require(rows.first { $0.hasPrefix("ID ") })
        #expect(header.contains("DIALOG") && !header.contains("DIALOG ID"))
        let waiting = try #require(rows.first { $0.contains("waiting") })
        #expect(waiting.contains("  \(bob.login)  ") && !waiting.contains(dialogID), "by name: \(waiting)")
        #expect(try #require(rows.first { $0.contains("nowhere") }).contains(unknown), "the id when the cache has no such dialog")
    }

    /// Forty messages, more than a 24-row terminal shows.
    func longDialog() throws -> (alice: ChatUser, bob: ChatUser) {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let lines = (1...40).map { String(format: "message %02d", $0) }
        let sent = try alice.run(["send", "--lines", "@" + bob.login], stdin: lines.joined(separator: "\n") + "\n")
        #expect(sent.status == 0, "\(sent.stderr)")
        return (alice, bob)
    }

    @Test func aLongHistoryOnATerminalGoesThroughThePagerAndNeverInAPipe() throws {
        let (alice, bob) = try longDialog()
        var environment = ChatEndToEndTests.environment(alice)
        environment["PAGER"] = "sed 's/^/PAGED:/'"
        let terminal = try TmuxSession(environment: environment)
        try terminal.runAtPrompt("chatctl history @\(bob.login)", expecting: "PAGED:")
        try terminal.waitForPrompt()
        #expect(try terminal.screen().contains("PAGED:") && terminal.screen().contains("message 40"))

        // Each command ends with its own marker: the last one's still on the screen must not be taken for it.
        try terminal.runAtPrompt("clear; chatctl history --no-pager @\(bob.login); echo unpaged=$?", expecting: "unpaged=0")
        var screen = try terminal.screen()
        #expect(screen.contains("message 40") && !screen.contains("PAGED:"), "--no-pager: \(screen)")

        try terminal.runAtPrompt("clear; chatctl history @\(bob.login) | tail -n 3; echo piped=$?", expecting: "piped=0")
        screen = try terminal.screen()
        #expect(screen.contains("\tmessage 40") || screen.contains("message 40"))
        #expect(!screen.contains("PAGED:"), "a pipe is never paged: \(screen)")

        // A short one fits: no pager.
        try terminal.runAtPrompt("clear; chatctl history -n 3 @\(bob.login); echo short=$?", expecting: "short=0")
        #expect(!(try terminal.screen()).contains("PAGED:"))
    }

    /// The default pager: `less -R` with LESS=FRX; quitting it early is no error.
    @Test func lessShowsTheFirstScreenAndQuittingEarlyIsNoError() throws {
        let (alice, bob) = try longDialog()
        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try terminal.type("env -u PAGER -u LESS -u CHATCTL_PAGER chatctl history @\(bob.login); echo status=$?")
        try terminal.press("Enter")
        let first = try terminal.waitForScreen("less's first screen") { $0.contains("message 01") && $0.contains("\n:") }
        #expect(!first.contains("message 40"), "the first screen, not the end: \(first)")
        try terminal.press("q")
        let after = try terminal.waitFor("status=0")
        #expect(!after.contains("chatctl:") && !after.lowercased().contains("broken pipe"), "\(after)")
    }
}
