#if canImport(Glibc)
import Glibc
#endif

/// A pipe that wakes a loop polling its read end: a byte written says "look" (a signal came,
/// an event waits, stop). Both ends non-blocking (a full pipe already holds a wake-up) and
/// closed on exec.
package enum WakePipe {
    /// The two ends; nil when no pipe can be made (`errno` says why).
    package static func make() -> (readEnd: Int32, writeEnd: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }
}
