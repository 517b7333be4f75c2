import Foundation
import Diagnostics
import MessageCache
import TestSupport
import Testing
@testable import ChatctlCLI
@testable import Presentation

/// A terminal on stdout (`columns` wide): what a person running a command sees.
final class TerminalStdout: TerminalIO {
    var out = ""
    var err = ""
    func writeOut(_ text: String) { out += text }
    func writeErr(_ text: String) { err += text }
    var stdinIsTerminal: Bool { true }
    var stdoutIsTerminal: Bool { true }
    var stderrIsTerminal: Bool { true }
    var stdoutColumns: Int? { 100 }
    func readAllInput() -> [UInt8]? { nil }
    func readSecret(prompt: String) -> String? { nil }
    func readLine(prompt: String) -> String? { nil }
}

/// Listings in a pipe are tab-separated rows without a header; on a terminal,
/// aligned columns under one (docs/cli-output.md).
@Suite struct ListingTests {
    static func users() -> Listing {
        var listing = Listing([.inPipes("KEY"), "ID", "LOGIN", "FULL NAME", "EMAIL"])
        listing.append(["k1", "7", "ann", "Ann\tSmith", "ann@example.com"])
        listing.append(["k2", "8", "ben", "", "ben@example.com"])
        listing.append(["k3", "9", "cy", "two\nlines\r\nhere", ""])
        return listing
    }

    @Test func aPipeGetsTabSeparatedRowsWithoutAHeaderAndEveryColumnInItsPlace() {
        let text = Self.users().render(.tabSeparated)
        #expect(text == """
            k1\t7\tann\tAnn Smith\tann@example.com
            k2\t8\tben\t\tben@example.com
            k3\t9\tcy\ttwo lines  here\t

            """)
        // As `awk -F'\t'` reads it: five fields a line, whatever is blank.
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 5 })
        #expect(lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] } == ["ann", "ben", "cy"])
    }

    @Test func aTerminalGetsAlignedColumnsUnderAHeaderWithoutThePipesOnlyColumns() {
        let text = Self.users().render(.aligned(width: nil))
        #expect(text == """
            ID  LOGIN  FULL NAME        EMAIL
            7   ann    Ann Smith        ann@example.com
            8   ben                     ben@example.com
            9   cy     two lines  here

            """)
    }

    @Test func aColumnForTerminalsIsLeftOutOfThePipe() {
        var listing = Listing(["ID", .onTerminals("SEEN")])
        listing.append(["1", "3m ago"])
        #expect(listing.render(.tabSeparated) == "1\n")
        #expect(listing.render(.aligned(width: nil)) == "ID  SEEN\n1   3m ago\n")
    }

    @Test func timesAreLocalForAPersonAndISO8601InAPipe() {
        #expect(Listing.Layout.tabSeparated.time(1_764_460_800) == "2025-11-30T00:00:00Z")
        #expect(Listing.Layout.tabSeparated.time(nil) == "")
        #expect(Listing.Layout.aligned(width: 80).time(1_764_460_800) == TimeText.format(1_764_460_800, "%Y-%m-%d %H:%M", in: .local))
    }

    @Test func theContextChoosesByWhetherStdoutIsATerminal() {
        let piped = CommandContext(globals: Chatctl(), path: ["chatctl", "users"], environment: [:], io: CapturedIO())
        #expect(piped.listingLayout == .tabSeparated)
        let terminal = CommandContext(globals: Chatctl(), path: ["chatctl", "users"], environment: [:], io: TerminalStdout())
        #expect(terminal.listingLayout == .aligned(width: 100))
    }

    /// A transcript's fields in a pipe: the id first, the state only for your own.
    @Test func historyRowsCarryIdsAndExactValues() {
        let mine = CachedMessage(id: "m1", dialogID: "d", senderID: 1, dateSent: 1_764_460_800, text: "hi\tthere", rawJSON: "{}")
        let theirs = CachedMessage(id: "m2", dialogID: "d", senderID: 2, dateSent: 1_764_460_860, text: "two\nlines", rawJSON: "{}")
        let text = Listing.tabSeparated(HistoryCommand.fields([mine, theirs], me: 1, names: [1: "Ann", 2: "Bob"]))
        #expect(text == """
            m1\t2025-11-30T00:00:00Z\t1\tAnn\tsent\t\thi there
            m2\t2025-11-30T00:01:00Z\t2\tBob\t\t\ttwo lines

            """)
    }
}

/// no-color.org: only a NO_COLOR with a value turns colour off.
@Suite struct NoColorTests {
    func useColor(_ environment: [String: String]) -> Bool {
        CommandContext(globals: Chatctl(), path: ["chatctl", "history"], environment: environment, io: TerminalStdout()).useColor
    }

    @Test func anEmptyNoColorKeepsColourOn() {
        #expect(useColor([:]))
        #expect(useColor(["NO_COLOR": ""]))
    }

    @Test(arguments: ["1", "0", "yes", " "])
    func anyValueTurnsItOff(_ value: String) {
        #expect(!useColor(["NO_COLOR": value]))
    }

    @Test func aDumbTerminalOrAPipeHasNone() {
        #expect(!useColor(["TERM": "dumb"]))
        #expect(!CommandContext(globals: Chatctl(), path: ["chatctl", "history"], environment: [:], io: CapturedIO()).useColor)
    }
}

/// `--since`/`--before` and `--timeout`: compound ages, weeks, and a range nothing can be in.
@Suite struct CompoundDurationTests {
    @Test(arguments: [("2h30m", 9000), ("1w", 604_800), ("1w2d", 777_600), ("90s", 90), ("1h1s", 3601), ("0s", 0)])
    func compoundAgesAddUp(text: String, seconds: Int) {
        #expect(Duration.seconds(spelled: text) == seconds)
        #expect(TimeArgument(argument: text)?.unixTime(now: 1_000_000) == 1_000_000 - seconds)
    }

    @Test(arguments: ["2h30", "h", "h2", "2x", "", "2h 30m", "-1h", "1.5h", "99999999999999w"])
    func notAges(_ text: String) {
        #expect(Duration.seconds(spelled: text) == nil)
    }

    @Test func aTimeoutTakesCompoundsToo() {
        #expect(Duration(argument: "1m30s") == .seconds(90))
        #expect(Duration(argument: "0h0m") == nil)
    }

    @Test func anInvertedRangeIsRefusedNamingBothAsTyped() throws {
        let since = try #require(TimeArgument(argument: "2h")), before = try #require(TimeArgument(argument: "3h"))
        #expect(throws: Failure.self) { try TimeArgument.range(since: since, before: before, now: 1_000_000) }
        do { _ = try TimeArgument.range(since: since, before: before, now: 1_000_000) } catch {
            #expect(error.kind == .invalidInput)
            #expect(error.message == "--since 2h is after --before 3h; nothing can match")
        }
        let same = try #require(TimeArgument(argument: "1764460800")), day = try #require(TimeArgument(argument: "2025-11-30"))
        do { _ = try TimeArgument.range(since: same, before: day, now: 0); Issue.record("an empty range was accepted") } catch {
            #expect(error.message == "--since 1764460800 is the same time as --before 2025-11-30; nothing can match")
        }
        let valid = try TimeArgument.range(since: before, before: since, now: 1_000_000)
        #expect(valid.since == 1_000_000 - 10_800 && valid.before == 1_000_000 - 7200)
        #expect(try TimeArgument.range(since: nil, before: since, now: 100_000).since == nil)
    }

    /// Said before anything is looked for: one line, exit 2, nothing on stdout.
    @Test func historyWithAnInvertedRangeSaysSoAndExits2() {
        let (status, io) = runChatctl(["history", "@bob", "--since", "2h", "--before", "3h"])
        #expect(status == 2)
        #expect(io.out.isEmpty)
        #expect(io.err == "chatctl: --since 2h is after --before 3h; nothing can match\n")
    }
}

/// Whether a transcript needs the pager, and which pager the environment asks for.
@Suite struct PagerChoiceTests {
    @Test func onlyTextLongerThanTheScreenOverflows() {
        let ten = String(repeating: "line\n", count: 10)
        #expect(!Pager.overflows(ten, rows: 24, columns: 80))
        #expect(Pager.overflows(ten, rows: 10, columns: 80))
        // Lines wider than the screen take several rows each.
        #expect(Pager.overflows(String(repeating: String(repeating: "x", count: 200) + "\n", count: 5), rows: 12, columns: 80))
    }

    @Test func emptyOrCatMeansNoPagerAndChatctlsOwnComesFirst() {
        #expect(Pager(environment: ["PAGER": ""]) == nil)
        #expect(Pager(environment: ["PAGER": "cat"]) == nil)
        #expect(Pager(environment: ["PAGER": " cat "]) == nil)
        #expect(Pager(environment: ["PAGER": "more"])?.command == "more")
        #expect(Pager(environment: ["PAGER": "more", "CHATCTL_PAGER": "most"])?.command == "most")
        #expect(Pager(environment: ["PAGER": "more", "CHATCTL_PAGER": ""]) == nil)
    }

    @Test func withoutPAGERItIsLessWhenThereIsOne() throws {
        let directory = try TemporaryDirectory()
        #expect(Pager(environment: ["PATH": directory.path]) == nil, "no less on PATH: no pager")
        try "#!/bin/sh\n".write(toFile: directory.file("less"), atomically: true, encoding: .utf8)
        chmod(directory.file("less"), 0o755)
        #expect(Pager(environment: ["PATH": directory.path])?.command == "less -R")
    }

    @Test func aPipeIsNeverPaged() {
        let io = CapturedIO()
        let context = CommandContext(globals: Chatctl(), path: ["chatctl", "history"], environment: ["PAGER": "false"], io: io)
        let long = String(repeating: "line\n", count: 500)
        context.writeOut(long, pager: true)
        #expect(io.out == long)
    }
}
