import Foundation

/// Values handed to a test from other threads (results, log lines, outcomes): appended
/// under a lock, read as a whole, or awaited with a deadline.
public final class ResultBox<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Value] = []

    public init() {}

    public func append(_ value: Value) {
        condition.lock()
        values.append(value)
        condition.broadcast()
        condition.unlock()
    }

    /// Everything appended so far, in order.
    public var all: [Value] {
        condition.lock()
        defer { condition.unlock() }
        return values
    }

    public var first: Value? { all.first }

    /// Blocks until `count` values are in or `timeout` seconds pass; returns what is in.
    @discardableResult
    public func wait(count: Int = 1, timeout: Double) -> [Value] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while values.count < count && condition.wait(until: deadline) {}
        return values
    }
}
