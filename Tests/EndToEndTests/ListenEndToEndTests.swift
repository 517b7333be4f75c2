import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct ListenEndToEndTests {
    @Test func receivesThreeMessagesSentWhileItListens() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "before listening"]).status == 0)
        let listener = try bob.cli.background(["listen", "--count", "3", "--json", "--timeout", "60s"])
        try listener.waitUntilListening()
        for text in ["one", "two", "three"] { #expect(try alice.run(["send", "@" + bob.login, text]).status == 0) }
        let heard = listener.finish(timeout: 30)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let lines = heard.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
        #expect(lines.compactMap { $0["message"] as? String } == ["one", "two", "three"])
        #expect(lines.allSatisfy { ($0["sender_id"] as? Int) == alice.id })
        // What it heard is cached: history offline has it.
        #expect(try bob.history("@" + alice.login, offline: true).compactMap { $0["message"] as? String }.contains("three"))
    }

    @Test func exitingWhileMessagesStillArriveIsClean() throws {
        // The disconnect at exit still delivers events: they must not reach a
        // listener that is already gone (this crashed with SIGABRT once).
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        for _ in 0..<3 {
            let listener = try bob.cli.background(["listen", "--count", "1", "--timeout", "30s"])
            try listener.waitUntilListening()
            let lines = (0..<3000).map { "burst \($0)" }.joined(separator: "\n") + "\n"
            #expect(try alice.run(["send", "@" + bob.login, "--lines"], stdin: lines).status == 0)
            let heard = listener.finish(timeout: 30)
            #expect(heard.status == 0, "stderr: \(heard.stderr)")
            #expect(heard.stdout.split(separator: "\n").count == 1)
        }
    }

    /// A burst read in batches: `--count` stops inside one, and what is cached is exactly
    /// what was printed (the rest of the batch was neither).
    @Test func countCachesWhatItPrintsAndNoMore() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        let listener = try bob.cli.background(["listen", "--count", "5", "--json", "--timeout", "60s"])
        try listener.waitUntilListening()
        let lines = (0..<400).map { "burst \($0)" }.joined(separator: "\n") + "\n"
        #expect(try alice.run(["send", "@" + bob.login, "--lines"], stdin: lines).status == 0)
        let heard = listener.finish(timeout: 30)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let printed = heard.stdout.split(separator: "\n").compactMap { jsonObject(String($0))?["message"] as? String }
        #expect(printed == (0..<5).map { "burst \($0)" })
        let cached = try bob.history("@" + alice.login, offline: true).compactMap { $0["message"] as? String }.filter { $0.hasPrefix("burst") }
        #expect(cached.sorted() == printed.sorted(), "cached \(cached.count): \(cached.prefix(8))")
    }

    @Test func execGetsTheTextAndFieldsAndTimeoutEndsIt() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let dir = try TemporaryDirectory()
        let sink = dir.file("hook.log")
        let listener = try bob.cli.background(["listen", "--timeout", "6s", "--exec", "printf '%s|%s|%s\\n' \"$CHATCTL_SENDER_ID\" \"$CHATCTL_DIALOG_ID\" \"$(cat)\" >> \(sink)"])
        try listener.waitUntilListening()
        #expect(try alice.run(["send", "@" + bob.login, "hook me"]).status == 0)
        let heard = listener.finish(timeout: 20)
        #expect(heard.status == 0, "a --timeout is a normal end; stderr: \(heard.stderr)")
        #expect(heard.stdout.contains("hook me"))
        let logged = try String(contentsOfFile: sink, encoding: .utf8)
        #expect(logged.hasPrefix("\(alice.id)|"))
        #expect(logged.hasSuffix("|hook me\n"))
    }

    @Test func survivesAServerRestartAndFillsTheGapOnce() throws {
        let chat = try RestartableChat()
        #expect(try chat.alice.run(["send", "@" + chat.bob.login, "hello"]).status == 0)
        let helloSent = Int(Date().timeIntervalSince1970)

        let listener = try chat.bob.cli.background(["listen", "--count", "2", "--json", "--timeout", "90s"])
        try listener.waitUntilListening()
        // date_sent counts whole seconds and the gap fill re-reads the last second it saw:
        // "hello", sent before listening, must be dated a second earlier than "live".
        try waitUntil("the second after hello's", timeout: 5) { Int(Date().timeIntervalSince1970) > helloSent }
        #expect(try chat.alice.run(["send", "@" + chat.bob.login, "live"]).status == 0)
        // The server stops only once "live" was heard live: the gap fill after the restart must not repeat it.
        try listener.stdout.waitForLine("the line of \"live\"", timeout: 30) { jsonObject($0)?["message"] as? String == "live" }
        try chat.restartSandbox()
        #expect(try chat.alice.run(["send", "@" + chat.bob.login, "while reconnecting"]).status == 0)
        let heard = listener.finish(timeout: 60)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        #expect(messages(in: heard.stdout) == ["live", "while reconnecting"], "each once, none lost; stderr: \(heard.stderr)")
        #expect(heard.stderr.contains("reconnect"))
    }

    /// With nothing heard live before the loss, the gap starts when listen was
    /// ready: what was sent in an earlier second is history, not news.
    @Test func aGapFillDoesNotRepeatWhatCameBeforeListening() throws {
        let chat = try RestartableChat()
        #expect(try chat.alice.run(["send", "@" + chat.bob.login, "before"]).status == 0)
        let beforeSent = Int(Date().timeIntervalSince1970)
        try waitUntil("the second after 'before'", timeout: 5) { Int(Date().timeIntervalSince1970) > beforeSent }

        let listener = try chat.bob.cli.background(["listen", "--count", "1", "--json", "--timeout", "90s"])
        try listener.waitUntilListening()
        try chat.restartSandbox()
        #expect(try chat.alice.run(["send", "@" + chat.bob.login, "after"]).status == 0)
        let heard = listener.finish(timeout: 60)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        #expect(messages(in: heard.stdout) == ["after"], "stderr: \(heard.stderr)")
    }

    /// The texts of `listen --json` output, in order.
    func messages(in stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap { jsonObject(String($0))?["message"] as? String }
    }
}

/// Alice and Bob on a sandbox that can be restarted on the same ports with its
/// users kept: a database and a certificate of its own keep the config valid.
final class RestartableChat {
    let directory: TemporaryDirectory
    let arguments: [String]
    var sandbox: SandboxProcess
    let alice: ChatUser, bob: ChatUser

    /// `extraArguments` go to every start of the sandbox (e.g. `--token-ttl`); `tls`: a
    /// certificate of its own, so a restart serves the same one.
    init(extraArguments: [String] = [], tls: Bool = true) throws {
        directory = try TemporaryDirectory()
        var identity: [String] = []
        if tls {
            let key = directory.file("key.pem"), cert = directory.file("cert.pem")
            let made = try runProcess("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                                           "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                                                           "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
            guard made.status == 0 else { throw TestSupportError("openssl: \(made.stderr)") }
            identity = ["--tls-cert", cert, "--tls-key", key]
        }
        arguments = ["--db", directory.file("sandbox.db")] + identity + extraArguments
        sandbox = try SandboxProcess(arguments: arguments)
        let configPath = directory.file("config.json")
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        alice = try ChatUser("alice", configPath: configPath)
        bob = try ChatUser("bob", configPath: configPath)
    }

    /// Stops the sandbox and starts it again on the same ports.
    func restartSandbox() throws {
        sandbox.stop()
        try startSandboxAgain()
    }

    /// Kills the sandbox with SIGKILL: nothing of its shutdown runs.
    func crashSandbox() { sandbox.crash() }

    /// Starts the sandbox again on the same `--db` and ports, once it is gone.
    func startSandboxAgain() throws {
        let api = URL(string: sandbox.apiEndpoint)!, chat = URL(string: sandbox.chatEndpoint)!
        sandbox = try SandboxProcess(arguments: arguments, apiPort: api.port!, chatPort: chat.port!)
    }
}
