/// A small XML element tree: what an incoming libstrophe stanza is copied into
/// before parsing (so parsing is pure and testable), and what outgoing stanzas are
/// built as before serializing. Text is the element's own character data; mixed
/// content is not kept (XMPP stanzas do not use it).
package struct StanzaElement: Sendable, Equatable {
    package struct Attribute: Sendable, Equatable {
        package var name: String
        package var value: String
        package init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    package var name: String
    /// The element's namespace; nil means "inherited from the parent".
    package var namespace: String?
    /// In document order (serialization keeps it, so output is byte-stable).
    package var attributes: [Attribute]
    package var children: [StanzaElement]
    package var text: String

    package init(_ name: String, namespace: String? = nil, attributes: [Attribute] = [],
                children: [StanzaElement] = [], text: String = "") {
        self.name = name; self.namespace = namespace; self.attributes = attributes
        self.children = children; self.text = text
    }

    package subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The first child called `name`, in `namespace` when given (children without
    /// their own namespace inherit `parentNamespace`, i.e. this element's).
    package func child(_ name: String, namespace: String? = nil) -> StanzaElement? {
        children.first { $0.name == name && (namespace == nil || ($0.namespace ?? self.namespace) == namespace) }
    }

    /// Serialized XML (UTF-8 text); `xmlns` is written where the namespace changes.
    package func xml(parentNamespace: String? = nil) -> String {
        var out = ""
        write(to: &out, parentNamespace: parentNamespace)
        return out
    }

    func write(to out: inout String, parentNamespace: String?) {
        out += "<"
        out += name
        if let namespace, namespace != parentNamespace {
            out += " xmlns=\""
            Self.appendEscaped(namespace, to: &out, inAttribute: true)
            out += "\""
        }
        for attribute in attributes {
            out += " "
            out += attribute.name
            out += "=\""
            Self.appendEscaped(attribute.value, to: &out, inAttribute: true)
            out += "\""
        }
        if children.isEmpty && text.isEmpty {
            out += "/>"
            return
        }
        out += ">"
        Self.appendEscaped(text, to: &out, inAttribute: false)
        let inherited = namespace ?? parentNamespace
        for child in children { child.write(to: &out, parentNamespace: inherited) }
        out += "</"
        out += name
        out += ">"
    }

    /// Escapes so a parser gives back exactly `text`: `&<>` always; in attributes
    /// also quotes and TAB/LF (attribute normalization); CR always as `&#13;`
    /// (line-end normalization would turn CRLF into LF). A character XML cannot
    /// carry at all becomes U+FFFD rather than break the stream.
    /// Whether `appendEscaped` would change `text`. 0xEF leads U+FFFE/U+FFFF (and the
    /// rest of U+F000...U+FFFF, which `appendEscaped` looks at more closely). Checked on
    /// the contiguous bytes: through the UTF8View it was most of writing a marker.
    static func needsEscaping(_ text: String, inAttribute: Bool) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            bytes.contains { byte in
                byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0xEF
                    || (byte < 0x20 && (inAttribute || (byte != 0x09 && byte != 0x0A)))
                    || (inAttribute && (byte == 0x22 || byte == 0x27))
            }
        }
    }

    static func appendEscaped(_ text: String, to out: inout String, inAttribute: Bool) {
        guard needsEscaping(text, inAttribute: inAttribute) else { out += text; return }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            case "\"" where inAttribute: out += "&quot;"
            case "'" where inAttribute: out += "&apos;"
            case "\t" where inAttribute: out += "&#9;"
            case "\n" where inAttribute: out += "&#10;"
            case _ where isUncarriable(scalar): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
    }

    /// C0 controls other than TAB/LF/CR, U+FFFE and U+FFFF: not XML 1.0 characters.
    private static func isUncarriable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0..<0x20, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    /// The first character XML 1.0 cannot carry at all, not even as a character
    /// reference (C0 controls other than TAB/LF/CR, e.g. ESC; U+FFFE, U+FFFF).
    /// A server would close the stream on it, losing every unacknowledged message.
    package static func firstCharacterXMLCannotCarry(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isUncarriable)
    }

    /// Whether `name` is usable as an element name for a custom parameter
    /// (ASCII letters, digits, `_`, `-`, `.`; not starting with a digit, `-`, `.` or "xml").
    package static func isSimpleName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !name.lowercased().hasPrefix("xml") else { return false }
        func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x5F }
        guard isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E }
    }
}
