import Foundation

/// Runs a real shell (or groff) for the completion and man page tests.
struct ScriptRunner {
    struct Result { var status: Int32; var stdout: String; var stderr: String }

    /// Whether `name` is an executable on PATH.
    static func has(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// Runs `arguments` under `timeout` so a hung shell fails the test instead of the run.
    static func run(_ arguments: [String], in directory: URL? = nil, seconds: Int = 30) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", String(seconds)] + arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        // Keep the shells away from the user's dotfiles, and out of `directory`.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("clk-home").path
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home
        environment["XDG_DATA_HOME"] = home
        environment["TERM"] = "dumb"
        process.environment = environment
        // stderr goes to a file so that reading stdout to its end cannot deadlock.
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("clk-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorURL) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self))
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
