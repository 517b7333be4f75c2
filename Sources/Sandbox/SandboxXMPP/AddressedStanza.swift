import SandboxXML

/// A stanza that goes to many recipients the same but for its `to`: written once, with the
/// address left as a gap filled per recipient. A message to a room of a thousand was
/// serialized a thousand times; now it is copied a thousand times.
struct AddressedStanza {
    /// Stands for the address while the stanza is written. DEL is valid XML that no
    /// escaping changes, and nothing the server writes before `to` (the name, `from`: a
    /// room or user JID it made) contains it.
    static let gap = "\u{7F}to\u{7F}"

    private let head: String
    private let tail: String

    /// `text` written with `gap` as its `to` (the first occurrence is taken).
    init(_ text: String) {
        guard let range = text.firstRange(of: Self.gap) else {
            preconditionFailure("an addressed stanza without its address gap")
        }
        head = String(text[..<range.lowerBound])
        tail = String(text[range.upperBound...])
    }

    /// The stanza as `to` receives it.
    func addressed(to jid: String) -> String {
        var out = head
        out.reserveCapacity(head.utf8.count + jid.utf8.count + tail.utf8.count + 8)
        XMLEscaping.appendAttribute(jid, to: &out)
        out += tail
        return out
    }
}
