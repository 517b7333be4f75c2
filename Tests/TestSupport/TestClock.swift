/// A clock a test moves by hand (pass `{ clock.now }` where code takes `now`).
public final class TestClock: @unchecked Sendable {
    public var now: Double
    public init(_ now: Double = 1_000_000) { self.now = now }
}
