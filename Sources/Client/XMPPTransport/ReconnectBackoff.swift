/// Delays between reconnect attempts: capped exponential with full jitter
/// (`random(0 ... min(cap, base * 2^attempt))`), reset once a connection has stayed
/// up for `stableAfter` seconds. Pure: the random source is passed in.
package struct ReconnectBackoff: Sendable, Equatable {
    package let base: Double
    package let cap: Double
    package let stableAfter: Double
    /// Failed attempts since the last stable connection.
    package private(set) var attempt = 0

    package init(base: Double = 1, cap: Double = 60, stableAfter: Double = 30) {
        self.base = max(0, base); self.cap = max(0, cap); self.stableAfter = stableAfter
    }

    /// The upper bound of the next delay.
    package var currentCeiling: Double {
        min(cap, base * Double(1 << min(attempt, 30)))
    }

    /// The delay before the next attempt; counts the attempt.
    package mutating func nextDelay<R: RandomNumberGenerator>(using random: inout R) -> Double {
        let ceiling = currentCeiling
        attempt += 1
        guard ceiling > 0 else { return 0 }
        return Double.random(in: 0...ceiling, using: &random)
    }

    package mutating func nextDelay() -> Double {
        var random = SystemRandomNumberGenerator()
        return nextDelay(using: &random)
    }

    /// The connection that followed has been up `seconds`: reset when that is stable.
    package mutating func connectionLasted(_ seconds: Double) {
        if seconds >= stableAfter { attempt = 0 }
    }

    package mutating func reset() { attempt = 0 }
}
