/// One HTTP header line; order and duplicates are kept as sent or received.
package struct HTTPHeader: Sendable, Equatable {
    package var name: String
    package var value: String
    package init(_ name: String, _ value: String) { self.name = name; self.value = value }
}
