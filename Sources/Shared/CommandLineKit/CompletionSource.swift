/// Where a declared value's completion comes from: the declaration, or the value's type,
/// asked only when help, a completion script or a value's check needs it (an
/// enum's cases, in generic code, cost a runtime search of the conformances at every start).
struct CompletionSource: Sendable {
    private let given: CompletionKind
    private let ofType: (@Sendable () -> CompletionKind)?

    init(_ given: CompletionKind) { self.given = given; ofType = nil }

    /// The declaration's completion when it gives one, else `Value`'s own.
    static func of<Value: ExpressibleByArgument>(_: Value.Type, given: CompletionKind?) -> CompletionSource {
        given.map(CompletionSource.init) ?? CompletionSource(ofType: { Value.defaultCompletion })
    }

    private init(ofType: @escaping @Sendable () -> CompletionKind) { given = .none; self.ofType = ofType }

    var kind: CompletionKind { ofType?() ?? given }
}
