import Testing
@testable import ChatctlCLI

/// `chatctl download`: its help, and what is refused before anything is asked of a server.
@Suite struct DownloadCommandTests {
    @Test func help() {
        let (status, io) = runChatctl(["download", "--help"])
        #expect(status == 0)
        #expect(io.out.hasPrefix("""
            OVERVIEW: Save a message's attachments, or a file by its uid.

            A message id (24 hex) saves every attachment of that message, each under its own
            """))
        #expect(io.out.contains("USAGE: chatctl download [--output <PATH>] [--dialog <DIALOG>] [--force]\n                        [--quiet] [--json] <MESSAGE_ID|UID>\n"))
        #expect(io.out.contains("  -o, --output <PATH>     Save to PATH: a file, a directory (several attachments\n"))
    }

    @Test func aTargetThatIsNeitherIdNorUidIsAUsageError() {
        expectUsageError(["download", "../../etc/passwd"],
                         firstLine: "chatctl: invalid value '../../etc/passwd' for MESSAGE_ID|UID; expected a message id (24 hex digits) or a file uid (letters, digits, '-' and '_')")
        expectUsageError(["download"], firstLine: "chatctl: missing argument MESSAGE_ID|UID")
        expectUsageError(["download", "30a8bcd7c714417eb62b95350d7e13b900", "-o", ""], firstLine: "chatctl: -o needs a path, or - for standard output")
        expectUsageError(["download", "30a8bcd7c714417eb62b95350d7e13b900", "--dialog", "ops"],
                         firstLine: "chatctl: --dialog goes with a message id, not a file uid")
    }

    @Test(arguments: [("photo.jpg", ["photo.jpg", "photo-2.jpg", "photo-3.jpg"]), ("README", ["README", "README-2", "README-3"]),
                      (".x", [".x", ".x-2", ".x-3"])])
    func repeatedNamesAreNumbered(_ name: String, _ expected: [String]) {
        var taken: Set<String> = []
        #expect((0..<3).map { _ in DownloadCommand.unique(name, taken: &taken) } == expected)
    }
}
