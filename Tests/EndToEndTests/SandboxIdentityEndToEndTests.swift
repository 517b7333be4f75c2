import Foundation
import Testing
import TestSupport

/// The sandbox keeps its identity on the same `--db` (docs/faults.md,
/// The sandbox): killed as a crash would and started again, it prints the same config line
/// (the same caFile, the same certificate), and a running `listen` carries on by itself.
@Suite struct SandboxIdentityEndToEndTests {
    @Test func aCrashedSandboxComesBackAsItselfAndListenCarriesOn() throws {
        let directory = try TemporaryDirectory()
        let scratch = directory.file("tmp")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        // No --tls-cert: the certificate is the sandbox's own, kept in the database.
        let arguments = ["--db", directory.file("sandbox.db")]
        var sandbox = try SandboxProcess(arguments: arguments, environment: ["TMPDIR": scratch])
        let firstLine = sandbox.configLine
        let caFile = try #require(sandbox.config["caFile"] as? String)
        let certificate = try String(contentsOfFile: caFile, encoding: .utf8)
        // The config outlives each run of the sandbox, as a user's does.
        let configPath = directory.file("config.json")
        try firstLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        let alice = try ChatUser("alice", configPath: configPath), bob = try ChatUser("bob", configPath: configPath)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        let helloSent = Int(Date().timeIntervalSince1970)

        let listener = try bob.cli.background(["listen", "--count", "2", "--json", "--timeout", "60s"])
        try listener.waitUntilListening()
        // The gap fill re-reads the last second it saw: "live" must come a second after "hello".
        try waitUntil("the second after hello's", timeout: 5) { Int(Date().timeIntervalSince1970) > helloSent }
        #expect(try alice.run(["send", "@" + bob.login, "live"]).status == 0)
        try listener.stdout.waitForLine("the line of \"live\"", timeout: 30) { jsonObject($0)?["message"] as? String == "live" }

        let api = try #require(URLComponents(string: sandbox.apiEndpoint)?.port)
        let chat = try #require(URLComponents(string: sandbox.chatEndpoint)?.port)
        sandbox.crash()
        sandbox = try SandboxProcess(arguments: arguments, apiPort: api, chatPort: chat, environment: ["TMPDIR": scratch])
        #expect(sandbox.configLine == firstLine, "the same config line, byte for byte")
        #expect(try String(contentsOfFile: caFile, encoding: .utf8) == certificate, "the same certificate")
        // The same users and sessions: alice's saved session still sends, with no new login.
        let sent = try alice.run(["send", "@" + bob.login, "while reconnecting"])
        #expect(sent.status == 0, "stderr: \(sent.stderr); sandbox: \(sandbox.stderr)")
        let heard = listener.finish(timeout: 45)
        if heard.status != 0 { print("sandbox stderr:\n\(sandbox.stderr)") }
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let printed = heard.stdout.split(separator: "\n").compactMap { jsonObject(String($0))?["message"] as? String }
        #expect(printed == ["live", "while reconnecting"], "each once, none lost; stderr: \(heard.stderr)")
        #expect(heard.stderr.contains("reconnect"))
        sandbox.stop()
        // With --db nothing goes to the temp directory at all.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }
}
