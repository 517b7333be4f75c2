import Foundation
import TestSupport

/// Runs a real shell (or groff) for the completion and man page tests.
struct ScriptRunner {
    /// Whether `name` is an executable on PATH.
    static func has(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// Runs `arguments` (found on PATH) with a home of its own, so a hung shell fails the test
    /// after `seconds` instead of the run.
    static func run(_ arguments: [String], in directory: URL? = nil, seconds: Int = 30) throws -> ProcessResult {
        // Keep the shells away from the user's dotfiles, and out of `directory`.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("clk-home").path
        return try runProcess("/usr/bin/env", arguments,
                              environment: ["HOME": home, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home, "TERM": "dumb"],
                              directory: directory?.path, timeout: Double(seconds))
    }

    /// A fresh directory holding `files` (names ending in "/" are directories).
    static func sandbox(_ files: [String: String] = [:]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files {
            let url = directory.appendingPathComponent(name)
            if name.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } else {
                try contents.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        return directory
    }
}
