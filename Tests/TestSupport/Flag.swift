/// A one-way flag shared between test threads: set once, read or awaited with a deadline.
package final class Flag: Sendable {
    private let box = ResultBox<Void>()

    package init() {}

    package func set() { if !isSet { box.append(()) } }

    package var isSet: Bool { !box.all.isEmpty }

    /// Whether the flag was set within `timeout` seconds.
    package func wait(timeout: Double) -> Bool { !box.wait(count: 1, timeout: timeout).isEmpty }
}
