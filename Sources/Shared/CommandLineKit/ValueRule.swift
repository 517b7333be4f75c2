/// How the parser checks the values of one option or argument, declared with it:
/// whether a text is a value, and what a usage error says was expected
/// ("invalid value 'x' for option '--limit'; expected a whole number from 1 to 100").
package struct ValueRule: Sendable, Equatable {
    /// Said after "expected ", e.g. "a whole number from 1 to 100". Made only when a
    /// usage error says it: every command the tree makes declares its rules, and a
    /// value interpolated into text in generic code costs a runtime conformance search
    /// (tens of thousands of instructions at start-up).
    package var expected: String { describe() }
    private let describe: @Sendable () -> String
    private let test: @Sendable (String) -> Bool
    private let explain: @Sendable (String) -> String?

    package init(expected: @escaping @autoclosure @Sendable () -> String, accepts test: @escaping @Sendable (String) -> Bool,
                 refusal explain: @escaping @Sendable (String) -> String? = { _ in nil }) {
        describe = expected; self.test = test; self.explain = explain
    }

    package func accepts(_ text: String) -> Bool { test(text) }

    /// Why `text` is refused, when the type can say more than what it expects.
    package func refusal(of text: String) -> String? { explain(text) }

    /// Two rules that say they expect the same are taken as the same (a closure
    /// cannot be compared); the words are part of the declaration.
    package static func == (lhs: ValueRule, rhs: ValueRule) -> Bool { lhs.expected == rhs.expected }

    /// The rule of a type, or nil for one every text is a value of (String).
    static func of<Value: ExpressibleByArgument>(_ type: Value.Type) -> ValueRule? {
        guard !Value.acceptsAnyText else { return nil }
        return ValueRule(expected: Value.expectedValue ?? "a value", accepts: { Value(argument: $0) != nil },
                         refusal: { Value.refusal(of: $0) })
    }

    /// A value of the type within `range` (`1...100`, or `1...` for no upper limit).
    static func of<Value: ExpressibleByArgument & Sendable>(_ type: Value.Type, in range: some ValueRange<Value>) -> ValueRule {
        let lowest = range.lowest, highest = range.highest
        return ValueRule(expected: {
            let noun = Value.expectedValue ?? "a value"
            return highest.map { "\(noun) from \(lowest) to \($0)" } ?? "\(noun), \(lowest) or more"
        }()) { text in
            guard let value = Value(argument: text), value >= lowest else { return false }
            return highest.map { value <= $0 } ?? true
        }
    }
}
