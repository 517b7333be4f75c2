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
        #expect(hint.hasPrefix("copy /usr/share/doc/chatctl/config.example.json there"))
        #expect(hint.contains("'chatctl-sandbox > /home/a/.config/chatctl/config.json &'"))
    }
}
