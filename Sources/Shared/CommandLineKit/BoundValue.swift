/// The storage a property wrapper shares with its copy in the registry, so
/// that binding through the copy sets the command's own property.
final class BoundValue<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
