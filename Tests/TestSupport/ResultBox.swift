import Foundation

/// Values handed to a test from other threads (results, log lines, outcomes): appended
/// under a lock, read as a whole, or awaited with a deadline.
package final class ResultBox<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Value] = []

    package init() {}

    package func append(_ value: Value) {
        condition.lock()
        values.append(value)
        condition.broadcast()
        condition.unlock()
    }

    /// Everything appended so far, in order.
    package var all: [Value] {
        condition.lock()
        defer { condition.unlock() }
        return values
    }

    package var first: Value? { all.first }

    /// Blocks until `count` values are in or `timeout` seconds pass; returns what is in.
    @discardableResult
    package func wait(count: Int = 1, timeout: Double) -> [Value] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while values.count < count && condition.wait(until: deadline) {}
        return values
    }
}
