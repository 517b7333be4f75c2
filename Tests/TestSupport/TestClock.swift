/// A clock a test moves by hand (pass `{ clock.now }` where code takes `now`).
package final class TestClock: @unchecked Sendable {
    package var now: Double
    package init(_ now: Double = 1_000_000) { self.now = now }
}
