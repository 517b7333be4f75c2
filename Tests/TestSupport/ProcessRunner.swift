import Foundation

/// Where `swift build` put the executables: next to the running test binary.
package let productsDirectory: URL = {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var dir = exe.deletingLastPathComponent()
    // The test binary may sit inside an .xctest bundle directory on some layouts.
    while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("chatctl").path) {
        if dir.lastPathComponent == ".build" { break }
        dir = dir.deletingLastPathComponent()
    }
    return dir
}()

package func productPath(_ name: String) -> String {
    productsDirectory.appendingPathComponent(name).path
}

/// Writing to a child that already exited must be an error (EPIPE), not the
/// death of the whole test process.
package let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()

/// What a child of a test runs with: the test's environment less any CHATCTL_* and XDG_*
/// values (the developer's own must not leak in), NO_COLOR=1, and `overrides` on top.
func childEnvironment(_ overrides: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("CHATCTL_") || key.hasPrefix("XDG_") { environment[key] = nil }
    environment["NO_COLOR"] = "1"
    return environment.merging(overrides) { $1 }
}

package struct ProcessResult: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    package var timedOut: Bool
}

/// Runs a program to completion (killed after `timeout` seconds, then `timedOut`), feeding `stdin`.
/// Without `stdin`, the child's standard input is /dev/null (never a terminal).
package func runProcess(_ path: String, _ arguments: [String], environment: [String: String] = [:],
                       stdin: Data? = nil, directory: String? = nil, timeout: Double = 60) throws -> ProcessResult {
    try ChildProcess(path, arguments, environment: environment, input: stdin.map { .bytes($0) } ?? .null, directory: directory)
        .finish(timeout: timeout)
}
