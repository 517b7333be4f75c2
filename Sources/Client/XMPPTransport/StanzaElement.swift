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
            MarkupEscaper.xmlAttribute.append(namespace, to: &out)
            out += "\""
        }
        for attribute in attributes {
            out += " "
            out += attribute.name
            out += "=\""
            MarkupEscaper.xmlAttribute.append(attribute.value, to: &out)
            out += "\""
        }
        if children.isEmpty && text.isEmpty {
            out += "/>"
            return
        }
        out += ">"
        MarkupEscaper.xmlText.append(text, to: &out)
        let inherited = namespace ?? parentNamespace
        for child in children { child.write(to: &out, parentNamespace: inherited) }
        out += "</"
        out += name
        out += ">"
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
