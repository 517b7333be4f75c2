/// A one-way flag shared between test threads: set once, read or awaited with a deadline.
public final class Flag: Sendable {
    private let box = ResultBox<Void>()

    public init() {}

    public func set() { if !isSet { box.append(()) } }

    public var isSet: Bool { !box.all.isEmpty }

    /// Whether the flag was set within `timeout` seconds.
    public func wait(timeout: Double) -> Bool { !box.wait(count: 1, timeout: timeout).isEmpty }
}
