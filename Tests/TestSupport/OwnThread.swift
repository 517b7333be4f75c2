import Foundation

/// Runs `body` on a fresh thread and awaits its result: libstrophe's blocking
/// loop must not run on the Swift concurrency pool, tests included.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Seconds elapsed on the continuous clock since `start`.
package func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
