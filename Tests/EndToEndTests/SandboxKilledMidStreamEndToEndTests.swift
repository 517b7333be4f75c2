import Foundation
import Testing
import TestSupport

/// Issue 24: the sandbox killed with SIGKILL in the middle of a 100,000-line `send --lines`
/// and started again on the same `--db` and ports. Nothing of its shutdown runs, so what it
/// had acknowledged must already be on disk and what it had not must be sent again (by the
/// reconnected sender, or from the outbox): after `outbox flush` the receiver's history
/// holds each line exactly once, in order.
@Suite(.serialized) struct SandboxKilledMidStreamEndToEndTests {
    @Test func hundredThousandLinesSurviveASandboxKillNine() throws {
        let directory = try TemporaryDirectory()
        let dbPath = directory.file("sandbox.db")
        var sandbox = try SandboxProcess(arguments: ["--db", dbPath])
        // The users' config outlives the first sandbox process.
        let configPath = directory.file("config.json")
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        let alice = try ChatUser("alice", configPath: configPath), bob = try ChatUser("bob", configPath: configPath)
        let api = URL(string: sandbox.apiEndpoint)!, chat = URL(string: sandbox.chatEndpoint)!

        let lines = (0..<100_000).map { "kill9 line \($0)" }
        let sender = try alice.cli.background(["send", "@" + bob.login, "--lines"], input: .pipe)
        // A fifth of the stream first; the kill comes once the server has stored part of it,
        // so some lines are acknowledged, some in flight and most not read yet.
        try sender.write(lines[..<20_000].joined(separator: "\n") + "\n")
        try bob.waitUntilServerHas("kill9 line 999", on: sandbox, timeout: 60)
        sandbox.crash()
        // Same database, same ports, at once: the sender reconnects (its bound is 30 s without
        // progress) and goes on; the sessions and what was acknowledged are still there.
        sandbox = try SandboxProcess(arguments: ["--db", dbPath], apiPort: api.port!, chatPort: chat.port!)
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        try sender.write(lines[20_000...].joined(separator: "\n") + "\n")
        sender.closeInput()
        let sent = sender.finish(timeout: 300)
        // 3 when a reconnect came too late for some lines: then they wait in the outbox.
        #expect(sent.status == 0 || sent.status == 3, "stderr: \(sent.stderr)")

        let flush = try alice.run(["outbox", "flush"], timeout: 300)
        #expect(flush.status == 0, "stderr: \(flush.stderr)")
        let left = try alice.run(["outbox", "--json"]).stdout
        #expect(left == "[]\n", "the outbox after the flush (\(left.utf8.count) bytes of JSON); flush said: \(flush.stdout) \(flush.stderr)")

        // The receiver's history as the server keeps it (paged over REST: 100 pages of 1,000).
        let token = try sandbox.createSession(login: bob.login, password: ChatUser.password)
        let dialog = try #require(try sandbox.dialogIDs(token: token).first)
        let stored = try sandbox.allMessageTexts(token: token, dialogID: dialog)
        // Compared by hand: a failed #expect on two 100,000-line arrays would print them whole.
        let common = min(stored.count, lines.count)
        let firstDifference = (0..<common).first { stored[$0] != lines[$0] } ?? common
        #expect(stored.count == lines.count, "each line once: \(stored.count) stored of \(lines.count)")
        #expect(firstDifference == lines.count,
                "each line exactly once, in order; first difference at \(firstDifference): \(stored.dropFirst(firstDifference).first ?? "nothing")")
    }
}
