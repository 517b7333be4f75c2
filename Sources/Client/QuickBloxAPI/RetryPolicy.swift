#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// When the client repeats a request the server was too busy for (429, 502, 503, 504).
/// Connection failures are never retried: they fail fast.
package struct RetryPolicy: Sendable {
    /// Total attempts, the first included.
    package var maxAttempts: Int
    /// Delay before the first retry; doubles each time, with ±50 % jitter.
    package var baseDelay: Double
    /// A `Retry-After: <seconds>` header is honoured up to this many seconds.
    package var maxRetryAfter: Double
    /// Statuses worth another attempt.
    package var retryableStatuses: Set<Int>
    /// Blocks the calling thread for the given seconds; tests pass a no-op.
    package var sleep: @Sendable (Double) -> Void

    package init(maxAttempts: Int = 3, baseDelay: Double = 0.2, maxRetryAfter: Double = 5,
                retryableStatuses: Set<Int> = [429, 502, 503, 504],
                sleep: @escaping @Sendable (Double) -> Void = RetryPolicy.threadSleep) {
        self.maxAttempts = maxAttempts; self.baseDelay = baseDelay; self.maxRetryAfter = maxRetryAfter
        self.retryableStatuses = retryableStatuses; self.sleep = sleep
    }

    package static let standard = RetryPolicy()
    /// Same attempts, no waiting (for tests).
    package static let immediate = RetryPolicy(sleep: { _ in })
    /// One attempt only.
    package static let never = RetryPolicy(maxAttempts: 1)

    /// The seconds a `Retry-After: <seconds>` header asks for, if it says so plainly.
    package static func requestedWait(_ retryAfter: String?) -> Double? {
        guard let retryAfter, let seconds = Double(retryAfter.trimmingScalars(" \t")), seconds.isFinite, seconds >= 0 else {
            return nil
        }
        return seconds
    }

    /// Whether to wait as a `Retry-After` asks: a wait longer than `maxRetryAfter`
    /// is not worth blocking for (a retry sooner would only be refused again), so
    /// the caller gives up at once and says when to come back.
    package func waitsFor(retryAfter: String?) -> Bool {
        guard let seconds = Self.requestedWait(retryAfter) else { return true }
        return seconds <= maxRetryAfter
    }

    /// Seconds to wait before attempt `attempt + 1` (`attempt` counts from 1).
    package func delay(afterAttempt attempt: Int, retryAfter: String?) -> Double {
        if let seconds = Self.requestedWait(retryAfter) { return min(seconds, maxRetryAfter) }
        let exponential = baseDelay * Double(1 << min(max(attempt - 1, 0), 16))
        return exponential * Double.random(in: 0.5...1.5)
    }

    package static let threadSleep: @Sendable (Double) -> Void = { seconds in
        guard seconds.isFinite, seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
