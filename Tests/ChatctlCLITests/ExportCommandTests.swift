import Foundation
import Testing
import Diagnostics
import TestSupport
@testable import ChatctlCLI

/// `chatctl export`'s input checks, the paths its links take, and its `-o` file,
/// written whole or not at all.
@Suite struct ExportCommandTests {
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
