/// A chat dialog's id: its `_id` on the server, an ObjectId of 24 lowercase hexadecimal digits.
/// A type of its own so that the compiler keeps it apart from a user's id, a message's id, a
/// login or a name. It is read once where it comes in (a REST answer, a stanza, a cache row, an
/// argument resolved to a dialog) and written back as the same text wherever it goes out.
package struct DialogID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible, Codable,
                         ExpressibleByStringLiteral {
    /// The id exactly as the server spells it.
    package let rawValue: String

    /// An id as received: the server decides what an id is, the client only carries it, so
    /// nothing is refused here (a test's or another server's short ids included).
    package init(rawValue: String) { self.rawValue = rawValue }

    package init(_ text: String) { self.rawValue = text }

    package init(stringLiteral text: String) { self.rawValue = text }

    /// Only an ObjectId (24 lowercase hexadecimal digits), as a person types one: anything else
    /// they type is a name or a login.
    package init?(objectID text: String) {
        guard Self.isObjectID(text) else { return nil }
        self.rawValue = text
    }

    /// Whether `text` is 24 lowercase hexadecimal digits.
    package static func isObjectID(_ text: String) -> Bool {
        text.utf8.count == 24 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    package var description: String { rawValue }

    package static func < (lhs: DialogID, rhs: DialogID) -> Bool { lhs.rawValue < rhs.rawValue }
}
