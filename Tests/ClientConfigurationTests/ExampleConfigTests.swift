import Foundation
import Testing
@testable import ClientConfiguration

/// Where the "no config" error sends a person: the example `make install` put
/// beside the binary, else the source tree's.
@Suite struct ExampleConfigTests {
    @Test func anInstalledExampleIsNamed() throws {
        let prefix = FileManager.default.temporaryDirectory.path + "/chatctl-prefix-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        #expect(ExampleConfig.path(executable: prefix + "/bin/chatctl") == nil)
        try FileManager.default.createDirectory(atPath: prefix + "/share/doc/chatctl", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: prefix + "/share/doc/chatctl/config.example.json", contents: Data("{}".utf8)))
        #expect(ExampleConfig.path(executable: prefix + "/bin/chatctl") == prefix + "/share/doc/chatctl/config.example.json")
    }

    /// This test runs from the build directory: the source tree's example is found above it.
    @Test func aBuildFindsTheSourceTreesExample() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        #expect(ExampleConfig.path() == repository + "/config.example.json")
    }

    @Test func theHintNamesTheExampleAndTheSandbox() {
        let hint = ExampleConfig.hint(configPath: "/home/a/.config/chatctl/config.json", example: "/usr/share/doc/chatctl/config.example.json")
        #expect(hint.hasPrefix("copy it with 'mkdir -p /home/a/.config/chatctl && cp /usr/share/doc/chatctl/config.example.json /home/a/.config/chatctl/config.json'"))
        #expect(hint.contains("'mkdir -p /home/a/.config/chatctl && chatctl-sandbox > /home/a/.config/chatctl/config.json &'"))
    }

    /// The hint's commands pasted into a shell on a fresh home, where ~/.config/chatctl does
    /// not exist yet (a path with a space and a dollar in it, quoted): the config is written.
    /// `chatctl-sandbox` is a stand-in that prints a config line, as the real one does.
    @Test func theHintsCommandsWorkAsPastedOnAFreshHome() throws {
        let home = FileManager.default.temporaryDirectory.path + "/chatctl-fresh home $x-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: home + "/bin/chatctl-sandbox", contents: Data("#!/bin/sh\necho '{\"appId\":1}'\n".utf8),
                                               attributes: [.posixPermissions: 0o755]))
        #expect(FileManager.default.createFile(atPath: home + "/example.json", contents: Data("{}".utf8)))
        let config = home + "/.config/chatctl/config.json"
        let hint = ExampleConfig.hint(configPath: config, example: home + "/example.json")
        // The two commands are the hint's quoted parts, after "copy it with" and "run".
        let commands = ["copy it with '", "run '"].compactMap { opening in
            hint.range(of: opening).map { String(hint[$0.upperBound...].prefix { $0 != "'" }) }
        }
        try #require(commands.count == 2, "\(hint)")
        #expect(try shell(commands[0], path: home + "/bin") == 0)
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "{}")
        try FileManager.default.removeItem(atPath: home + "/.config")
        // The sandbox runs in the background: its config is waited for (the stand-in prints it at once).
        #expect(try shell(commands[1], path: home + "/bin") == 0)
        let deadline = Date().addingTimeInterval(20)
        while (try? String(contentsOfFile: config, encoding: .utf8)) != "{\"appId\":1}\n" && Date() < deadline { usleep(20_000) }
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "{\"appId\":1}\n")
    }

    private func shell(_ command: String, path: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ["PATH": path + ":/usr/bin:/bin"]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
