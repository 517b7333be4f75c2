/// Hands a value that is not `Sendable` to the one thread that uses it from then on.
struct UncheckedTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
