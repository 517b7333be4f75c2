import Foundation
import Testing
@testable import ChatctlCLI
import Diagnostics

/// Where the password for renewing a forgotten session comes from (docs/protocol.md §2):
/// --password-file, CHATCTL_PASSWORD, else a no-echo prompt on a terminal; asked only when needed.
@Suite struct RenewalPasswordTests {
    func context(_ arguments: [String], io: CapturedIO, environment: [String: String] = [:]) throws -> CommandContext {
        guard case .run(let invocation) = try Chatctl.tree.parse(arguments + ["status"]) else {
            throw CancellationError()
        }
        let root = try #require(invocation.command(Chatctl.self))
        return CommandContext(globals: root, path: invocation.path, environment: environment, io: io)
    }

    @Test func theFileComesBeforeTheEnvironmentAndNothingIsPrompted() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "from-the-file\nsecond line\n".write(toFile: file, atomically: true, encoding: .utf8)
        let io = CapturedIO(terminal: true)
        let password = try context(["--password-file", file], io: io, environment: ["CHATCTL_PASSWORD": "from-env"]).renewalPassword()
        #expect(password("alice") == "from-the-file")
        #expect(io.prompts.isEmpty)
    }

    @Test func theEnvironmentWithoutAFile() throws {
        let io = CapturedIO(terminal: true)
        let password = try context([], io: io, environment: ["CHATCTL_PASSWORD": "from-env"]).renewalPassword()
        #expect(password("alice") == "from-env")
        #expect(io.prompts.isEmpty)
    }

    @Test func aTerminalIsAskedOnlyWhenARenewalNeedsIt() throws {
        let io = CapturedIO(terminal: true)
        io.secretAnswers = ["typed-pass-1"]
        let password = try context([], io: io).renewalPassword()
        #expect(io.prompts.isEmpty, "no prompt before a renewal asks")
        #expect(password("alice") == "typed-pass-1")
        #expect(io.prompts == ["The session expired; password for alice: "])
    }

    @Test func withoutATerminalThereIsNone() throws {
        let io = CapturedIO(terminal: false)
        #expect(try context([], io: io).renewalPassword()("alice") == nil)
        #expect(io.prompts.isEmpty)
    }

    @Test func aMissingOrEmptyFileIsBadInputAtOnce() throws {
        let io = CapturedIO()
        #expect(throws: Failure.self) { try context(["--password-file", "/nonexistent/pw"], io: io).renewalPassword() }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: empty) }
        try "\n".write(toFile: empty, atomically: true, encoding: .utf8)
        #expect(throws: Failure.self) { try context(["--password-file", empty], io: io).renewalPassword() }
    }
}
