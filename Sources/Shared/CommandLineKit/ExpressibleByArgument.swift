/// A type an option's or argument's value is read as: `@Option(…) var count: Int?`,
/// `@Argument(…) var shell: CompletionScript.Shell`. The parser reads every value
/// with `init(argument:)` and refuses one that is none with a usage error naming
/// the option, the value and `expectedValue` (`ValueRule`); the command's property
/// only ever holds values of the type. (swift-argument-parser's protocol of the same name.)
package protocol ExpressibleByArgument: OptionValue, SendableMetatype where Given == Self {
    /// The value `argument` spells, or nil when it spells none.
    init?(argument: String)

    /// What a value must be, as a usage error says it after "expected ", e.g.
    /// "a whole number"; nil for a type every text is a value of (String).
    static var expectedValue: String? { get }

    /// Every spelling, when there are few (an enum's cases): shells offer them and
    /// the parser takes no other. Empty for most types.
    static var allValueStrings: [String] { get }

    /// What shells offer for a value when the declaration does not say.
    static var defaultCompletion: CompletionKind { get }

    /// Every text is a value (String): the parser checks nothing.
    static var acceptsAnyText: Bool { get }

    /// Why `text`, which `init(argument:)` refused, is no value, when that says more than
    /// `expectedValue` ("'@' needs a login after it"); nil: the usage error says what was expected.
    static func refusal(of text: String) -> String?

    /// The value as a command line spells it, as help shows a declared default
    /// ("(default: 20)"); by default the value's description.
    var defaultValueDescription: String { get }
}

extension ExpressibleByArgument {
    package static var allValueStrings: [String] { [] }
    package static var acceptsAnyText: Bool { false }
    package static func refusal(of text: String) -> String? { nil }
    package var defaultValueDescription: String { String(describing: self) }
    package static var defaultCompletion: CompletionKind { allValueStrings.isEmpty ? .none : .choices(allValueStrings) }

    /// A value the parser has accepted: the same `init(argument:)` gave one then.
    static func accepted(_ text: String) -> Self {
        guard let value = Self(argument: text) else { preconditionFailure("the parser took '\(text)', which is no \(Self.self)") }
        return value
    }
}

/// An enum of named cases (`enum Via: String, CaseIterable { case chat, rest }`)
/// needs no more than the conformance: its raw values are its spellings, shells
/// offer them, and a usage error lists them.
extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
    package init?(argument: String) { self.init(rawValue: argument) }
    package static var allValueStrings: [String] { allCases.map(\.rawValue) }
    package static var expectedValue: String? { "one of: " + allValueStrings.joined(separator: ", ") }
    package var defaultValueDescription: String { rawValue }
}

extension String: ExpressibleByArgument {
    package init?(argument: String) { self = argument }
    package static var expectedValue: String? { nil }
    package static var acceptsAnyText: Bool { true }
    package var defaultValueDescription: String { self }
}

extension Int: ExpressibleByArgument {
    package init?(argument: String) { self.init(argument) }
    package static var expectedValue: String? { "a whole number" }
    package var defaultValueDescription: String { String(self) }
}

extension Double: ExpressibleByArgument {
    package init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
    package static var expectedValue: String? { "a number" }
    /// `7200`, `0.01`: as it would be typed, without a whole number's `.0`.
    package var defaultValueDescription: String { rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
