/// What an `@Option` property holds: an optional, nil when the option is not given
/// (`var login: String?`), or a value of the type with the default the declaration
/// gives it (`var limit: Int = 20`). Either way the parser reads `Given` values.
package protocol OptionValue {
    associatedtype Given: ExpressibleByArgument
    /// The property's value when the command line gave `value`.
    init(given value: Given)
    /// The value as one given, or nil for an optional's nil (which help shows as no default).
    var given: Given? { get }
}

extension Optional: OptionValue where Wrapped: ExpressibleByArgument {
    package typealias Given = Wrapped
    package init(given value: Wrapped) { self = .some(value) }
    package var given: Wrapped? { self }
}

extension ExpressibleByArgument {
    package init(given value: Self) { self = value }
    package var given: Self? { self }
}
