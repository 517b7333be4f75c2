#if canImport(Glibc)
import Glibc
#endif

/// Diagnostics to stderr, one line each (stdout carries only the config line).
package struct SandboxLog: Sendable {
    package enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        package static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }
    package var minimum: Level = .info

    package init(minimum: Level = .info) { self.minimum = minimum }

    package func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        var line = Array("chatctl-sandbox: \(level): \(message())\n".utf8)
        // One write(2) per line so lines from concurrent writers never interleave.
        _ = line.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}
