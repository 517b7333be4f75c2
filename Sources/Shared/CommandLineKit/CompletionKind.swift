/// What the shell should offer when completing a value.
///
/// `.choices` is also a constraint: the parser rejects a value outside the list.
package enum CompletionKind: Sendable, Equatable {
    case none, file, directory
    case choices([String])
}
