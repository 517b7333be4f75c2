// One line on stderr when the disk fills, not one per refused request.
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Says on stderr that writes fail for want of space, at most once a minute for each kind of
/// write (with how many were refused meanwhile), and once that they succeed again. Any thread
/// (the storage endpoint has its own); one per process, as stderr is.
package final class SpaceNotice: Sendable {
    package static let process = SpaceNotice()
    /// Seconds between two "full" lines.
    static let interval: Double = 60

    /// Per kind of write (the database, an upload): when its last line went out, and how many
    /// were refused since.
    private struct State {
        var lastLine: [String: Double] = [:]
        var refusedSinceLine: [String: Int] = [:]
        var isShort = false
    }
    private let state = Mutex(State())

    /// A write of `what` (the database, an upload) failed for `reason`.
    package func short(_ what: String, reason: String) {
        let now = Self.monotonic()
        let line: String? = state.withLock { state in
            state.isShort = true
            state.refusedSinceLine[what, default: 0] += 1
            if let last = state.lastLine[what], now - last < Self.interval { return nil }
            let others = state.refusedSinceLine[what, default: 1] - 1
            state.lastLine[what] = now
            state.refusedSinceLine[what] = 0
            return "disk full (\(reason)) writing \(what): answering 507 and resource-constraint until there is room"
                + (others > 0 ? " (\(others) more writes refused since the last line)" : "")
        }
        if let line { SandboxLog(minimum: .error).log(.error, line) }
    }

    /// A write succeeded after a "full" line: say so, at most once a minute too (a nearly full
    /// disk takes small writes and refuses big ones, back and forth).
    package func returned() {
        let now = Self.monotonic()
        let wasShort = state.withLock { state in
            guard state.isShort else { return false }
            state.isShort = false
            if let last = state.lastLine["back"], now - last < Self.interval { return false }
            state.lastLine["back"] = now
            return true
        }
        if wasShort { SandboxLog(minimum: .warning).log(.warning, "disk space is back: writes succeed again") }
    }

    private static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
