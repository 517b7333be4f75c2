import Foundation
import Testing
import TestSupport

/// `chatctl listen` as a separate process while others send.
final class BackgroundChatctl: @unchecked Sendable {
    let process = Process()
    private let out = Pipe(), err = Pipe()

    init(_ arguments: [String], configPath: String, stateDir: String) throws {
        process.executableURL = URL(fileURLWithPath: productPath("chatctl"))
        process.arguments = arguments
        process.environment = ["CHATCTL_CONFIG": configPath, "CHATCTL_STATE_DIR": stateDir, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    /// Waits for exit (killing it after `timeout`), then returns status, stdout, stderr.
    func finish(timeout: Double) -> (Int32, String, String) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, stdout, stderr)
    }
}

@Suite(.serialized) struct ListenEndToEndTests {
    /// Waits until the listener is connected: it has joined when the server
    /// has a bound chat session for the user; polling a short while is enough here.
    func settle() { Thread.sleep(forTimeInterval: 1.5) }

    @Test func receivesThreeMessagesSentWhileItListens() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "before listening"]).status == 0)
        let listener = try BackgroundChatctl(["listen", "--count", "3", "--json", "--timeout", "60s"],
                                             configPath: sandbox.configPath, stateDir: bob.cli.stateDir.path + "/state")
        settle()
        for text in ["one", "two", "three"] { #expect(try alice.run(["send", "@" + bob.login, text]).status == 0) }
        let (status, stdout, stderr) = listener.finish(timeout: 30)
        #expect(status == 0, "stderr: \(stderr)")
        let lines = stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
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
            let listener = try BackgroundChatctl(["listen", "--count", "1", "--timeout", "30s"],
                                                 configPath: sandbox.configPath, stateDir: bob.cli.stateDir.path + "/state")
            settle()
            let lines = (0..<3000).map { "burst \($0)" }.joined(separator: "\n") + "\n"
            #expect(try alice.run(["send", "@" + bob.login, "--lines"], stdin: lines).status == 0)
            let (status, stdout, stderr) = listener.finish(timeout: 30)
            #expect(status == 0, "stderr: \(stderr)")
            #expect(stdout.split(separator: "\n").count == 1)
        }
    }

    @Test func execGetsTheTextAndFieldsAndTimeoutEndsIt() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let dir = try TemporaryDirectory()
        let sink = dir.file("hook.log")
        let listener = try BackgroundChatctl(
            ["listen", "--timeout", "6s", "--exec", "printf '%s|%s|%s\\n' \"$CHATCTL_SENDER_ID\" \"$CHATCTL_DIALOG_ID\" \"$(cat)\" >> \(sink)"],
            configPath: sandbox.configPath, stateDir: bob.cli.stateDir.path + "/state")
        settle()
        #expect(try alice.run(["send", "@" + bob.login, "hook me"]).status == 0)
        let (status, stdout, stderr) = listener.finish(timeout: 20)
        #expect(status == 0, "a --timeout is a normal end; stderr: \(stderr)")
        #expect(stdout.contains("hook me"))
        let logged = try String(contentsOfFile: sink, encoding: .utf8)
        #expect(logged.hasPrefix("\(alice.id)|"))
        #expect(logged.hasSuffix("|hook me\n"))
    }

    @Test func survivesAServerRestartAndFillsTheGapOnce() throws {
        let dir = try TemporaryDirectory()
        let key = dir.file("key.pem"), cert = dir.file("cert.pem")
        let made = try runProcess("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                                       "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                                                       "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        try #require(made.status == 0, "openssl: \(made.stderr)")
        let db = dir.file("sandbox.db")
        let arguments = ["--db", db, "--tls-cert", cert, "--tls-key", key]
        var sandbox = try SandboxProcess(arguments: arguments)
        let configPath = dir.file("config.json")
        try sandbox.configLine.write(toFile: configPath, atomically: true, encoding: .utf8)
        let alice = try ChatUser("alice", configPath: configPath), bob = try ChatUser("bob", configPath: configPath)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        let api = URL(string: sandbox.apiEndpoint)!, chat = URL(string: sandbox.chatEndpoint)!

        let listener = try BackgroundChatctl(["listen", "--count", "2", "--json", "--timeout", "90s"],
                                             configPath: configPath, stateDir: bob.cli.stateDir.path + "/state")
        settle()
        #expect(try alice.run(["send", "@" + bob.login, "live"]).status == 0)
        Thread.sleep(forTimeInterval: 0.5)
        sandbox.stop()
        sandbox = try SandboxProcess(arguments: arguments, apiPort: api.port!, chatPort: chat.port!)
        #expect(try alice.run(["send", "@" + bob.login, "while reconnecting"]).status == 0)
        let (status, stdout, stderr) = listener.finish(timeout: 60)
        #expect(status == 0, "stderr: \(stderr)")
        let texts = stdout.split(separator: "\n").compactMap { jsonObject(String($0))?["message"] as? String }
        #expect(texts == ["live", "while reconnecting"], "each once, none lost; stderr: \(stderr)")
        #expect(stderr.contains("reconnect"))
    }
}
