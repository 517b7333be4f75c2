import Foundation
import Testing
import HTTPTransport
import MessageCache
import Messaging
import TestSupport
@testable import ChatctlCLI
import Diagnostics

/// The upload entry points of `send --attach`: the source checked, judged and kept in
/// the outbox's directory before anything is sent, and one progress bar per file,
/// drawn on a terminal's stderr, named after its file, cleared before the next.
@Suite struct UploadEntryTests {
    /// File `position` of one message, `bytes` of 2 MB up.
    static func upload(_ position: Int, name: String, bytes: Int64 = 0) -> TransferUpdate {
        TransferUpdate(messageID: "6b0db884edb3b3d9cddf1330", attachment: position, direction: .upload, name: name,
                       done: bytes, total: 2_000_000)
    }

    @Test func eachFileHasItsOwnBarClearedBeforeTheNextAndAtTheEnd() {
        let io = TerminalStderr()
        let context = CommandContext(globals: Chatctl(), path: ["chatctl", "send"], environment: [:], io: io)
        let bars = UploadProgressBars(context: context, quiet: false)
        bars.update(Self.upload(0, name: "one.txt", bytes: 0))
        bars.update(Self.upload(1, name: "two.txt", bytes: 0))
        bars.finish()
        #expect(io.err.count == 4)
        #expect(io.err[0].hasPrefix("\rone.txt ") && io.err[1] == "\r\u{1B}[K")
        #expect(io.err[2].hasPrefix("\rtwo.txt ") && io.err[3] == "\r\u{1B}[K")
        bars.finish()
        #expect(io.err.count == 4, "nothing drawn, nothing to clear")
    }

    @Test func quietOrNoTerminalDrawsNothing() {
        let terminal = TerminalStderr()
        let quiet = UploadProgressBars(context: CommandContext(globals: Chatctl(), path: ["chatctl", "send"], environment: [:], io: terminal),
                                       quiet: true)
        quiet.update(Self.upload(0, name: "one.txt", bytes: 10))
        quiet.finish()
        #expect(terminal.err.isEmpty)
        let captured = CapturedIO()
        let piped = UploadProgressBars(context: CommandContext(globals: Chatctl(), path: ["chatctl", "send"], environment: [:], io: captured),
                                       quiet: false)
        piped.update(Self.upload(0, name: "one.txt", bytes: 10))
        piped.finish()
        #expect(captured.err.isEmpty)
    }

    @Test func aStreamIsSpooledIntoTheOutboxsDirectoryPrivately() throws {
        let state = try TemporaryDirectory()
        let context = CommandContext(globals: Chatctl(), path: ["chatctl", "send"], environment: ["CHATCTL_STATE_DIR": state.path], io: CapturedIO())
        let directory = try context.outboxFilesDirectory()
        #expect(directory == state.path + "/outbox-files")
        let fifo = state.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread { try? Data("through a pipe\n".utf8).write(to: URL(fileURLWithPath: fifo)) }
        writer.start()
        let source = try context.uploadSource(fifo, name: "notes.txt", keepingIn: directory)
        let spool = try #require(source.spoolPath)
        #expect(spool.hasPrefix(directory + "/upload-"))
        var info = stat()
        #expect(stat(spool, &info) == 0 && info.st_mode & 0o777 == 0o600 && info.st_size == 15)
        #expect(source.name == "notes.txt" && source.contentType == "text/plain")
        #expect(stat(directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test func aMissingFileFailsBeforeAnyRequestWithExit2() throws {
        let state = try TemporaryDirectory()
        let context = CommandContext(globals: Chatctl(), path: ["chatctl", "send"], environment: ["CHATCTL_STATE_DIR": state.path], io: CapturedIO())
        let error = try #require(throws: Failure.self) { try context.uploadSource(state.file("gone.jpg"), name: nil) }
        let io = CapturedIO()
        #expect(Chatctl.report(error, io: io) == 2)
        #expect(io.err == "chatctl: cannot attach \(state.file("gone.jpg")): no such file\n")
    }
}
