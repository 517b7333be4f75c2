import CommandLineKit

/// chatctl's options are typed: `@Option(…) var limit: Int?` is a `TypedOption<Int>`.
/// CommandLineKit's own `Option` is still the text-only one, because chatctl-sandbox
/// names it as a type; when it no longer does, the kit's `TypedOption` takes the
/// name `Option` and this alias goes.
typealias Option<Value: ExpressibleByArgument> = TypedOption<Value>
