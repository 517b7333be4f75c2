import Foundation
import Testing
import Diagnostics
import TestSupport
@testable import ChatctlCLI

/// `chatctl export`'s input checks, the paths its links take, and its `-o` file,
/// written whole or not at all.
@Suite struct ExportCommandTests {
    @Test func exportHelp() {
        let (status, io) = runChatctl(["help", "export"])
        #expect(status == 0)
        #expect(io.out == Self.help)
        #expect(runChatctl(["export", "--help"]).1.out == Self.help)
    }

    static let help = #"""
OVERVIEW: Write a whole dialog as Markdown, HTML or JSON Lines.

Every message of DIALOG, oldest first. The cache is first filled with the
dialog's whole history from the server (not with --offline), then read and
written a page at a time, so a dialog of any length takes little memory. md: a
heading a day, each message's sender, time and (your own) state, then its text;
html: one self-contained file, images inside it up to --inline-limit; jsonl: the
message objects of history --json, one a line. Replies and forwards quote their
original. Other users' text is escaped for the format. --attachments DIR saves
each file into DIR and links to it; without it files are only named (HTML still
inlines images). With -o the file is replaced only once the export is whole. A
file that cannot be fetched is a line on stderr: the export goes on, and exits
1.

USAGE: chatctl export [--format <FORMAT>] [--output <FILE>]
                      [--attachments <DIR>] [--inline-limit <SIZE>]
                      [--since <T>] [--before <T>] [--offline] <DIALOG>

ARGUMENTS:
  <DIALOG>                A dialog id, @login or an email address (the private
                          dialog with that user), or any name 'chatctl dialogs'
                          shows.

OPTIONS:
  --format <FORMAT>       md, html or jsonl (default: md).
  -o, --output <FILE>     Write to FILE instead of standard output (replaced
                          once the export is whole).
  --attachments <DIR>     Save each attachment into DIR (made when missing) and
                          link to it.
  --inline-limit <SIZE>   With --format html: put images up to SIZE inside the
                          page; 0: none (default: 2M).
  --since <T>             Only messages sent after T.
  --before <T>            Only messages sent before T.
  --offline               Answer from the local cache only; no network.
  -h, --help              Show help information.

\#(GoldenHelpTests.globalOptions)

EXAMPLES:
  # The dialog ops as Markdown
  chatctl export ops > ops.md

  # One HTML page of the dialog with bob, its files saved beside it
  chatctl export @bob --format html --attachments bob-files -o bob.html

  # The last week's texts, one a line
  chatctl export ops --format jsonl --since 7d | jq -r .message

"""#

    @Test func badCombinationsAreUsageErrorsBeforeAnythingIsFetched() {
        expectUsageError(["export", "ops", "--inline-limit", "1M"], firstLine: "chatctl: --inline-limit goes with --format html")
        expectUsageError(["export", "ops", "--attachments", "files", "--offline"],
                         firstLine: "chatctl: --attachments fetches files: it cannot be used with --offline")
        expectUsageError(["export", "ops", "--since", "1h", "--before", "2h"],
                         firstLine: "chatctl: --since must be earlier than --before: no message is sent after one and before the other")
        expectUsageError(["export", "ops", "-o", "/tmp"], firstLine: "chatctl: -o needs a file, and /tmp is a directory")
        expectUsageError(["export", "ops", "--format", "pdf"],
                         firstLine: "chatctl: invalid value 'pdf' for option '--format'; expected one of: md, html, jsonl")
        expectUsageError(["export", "ops", "--format", "html", "--inline-limit", "lots"],
                         firstLine: "chatctl: invalid value 'lots' for option '--inline-limit'; expected a size: bytes, or a number with K or M (e.g. 500K, 2M)")
    }

    @Test func aFileThatCannotBeWrittenIsSaidBeforeAnythingIsFetched() {
        // No config and no session here: the file is tried first.
        let (status, io) = runChatctl(["export", "ops", "-o", "/nonexistent-dir/ops.md"])
        #expect(status == 2)
        #expect(io.err == "chatctl: cannot write /nonexistent-dir/ops.md: No such file or directory\n")
        #expect(io.out.isEmpty)
    }

    @Test(arguments: [("0", 0), ("2048", 2048), ("500K", 512_000), ("500kb", 512_000), ("2M", 2_097_152), ("3MiB", 3_145_728)])
    func sizesAreBytesOrBinaryUnits(_ text: String, _ bytes: Int) {
        #expect(ByteSize(argument: text)?.bytes == bytes)
    }

    @Test(arguments: ["", "M", "-1", "2G", "1.5M", "9999999M"])
    func otherSizesAreRefused(_ text: String) {
        #expect(ByteSize(argument: text) == nil)
    }

    @Test(arguments: [
        (".", "files", "files"), ("out", "files", "../files"), ("out/deep", "out/files", "../files"),
        ("/a/b", "/a/c/d", "../c/d"), (".", "./x/../y", "y"), ("/w/out", "files", "../files"), ("/w", "/w", "."),
    ])
    func linksAreRelativeToTheExportsDirectory(_ from: String, _ to: String, _ expected: String) {
        #expect(RelativePath.from(from, to: to, currentDirectory: "/w") == expected)
    }

    @Test func theOutputFileIsReplacedOnlyOnceWhole() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("out.md")
        try "before\n".write(toFile: path, atomically: false, encoding: .utf8)
        do {
            let file = try AtomicOutputFile(path: path)
            try file.write("half of it")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "before\n", "not touched while being written")
            // Dropped without commit: an export that failed.
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "before\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.md"], "no temporary file left")

        let file = try AtomicOutputFile(path: path)
        try file.write("all ")
        try file.write("of it\n")
        try file.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "all of it\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.md"])
    }

    @Test func anOutputFileInADirectoryThatIsNotThereIsOneLine() throws {
        let directory = try TemporaryDirectory()
        let failure = #expect(throws: Failure.self) { try AtomicOutputFile(path: directory.file("missing/out.md")) }
        if let error = failure {
            #expect(error.message == "cannot write \(directory.file("missing/out.md")): No such file or directory")
            #expect(error.kind == .invalidInput)
        }
    }
}
