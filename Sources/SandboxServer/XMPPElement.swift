/// One element of an XMPP stream (a stanza or a nonza), as parsed by
/// `XMLStreamParser`: namespaces resolved, prefixes dropped on elements.
struct XMPPElement: Equatable {
    struct Attribute: Equatable {
        var name: String      // "xml:lang" for the xml namespace, else local or "prefix:local"
        var value: String
    }
    enum Node: Equatable {
        case element(XMPPElement)
        case text(String)
    }

    var name: String
    var namespace: String
    var attributes: [Attribute] = []
    var children: [Node] = []

    init(name: String, namespace: String, attributes: [Attribute] = [], children: [Node] = []) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.children = children
    }

    subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    var elements: [XMPPElement] {
        children.compactMap { if case .element(let e) = $0 { return e } else { return nil } }
    }

    func child(_ name: String, namespace: String? = nil) -> XMPPElement? {
        elements.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// The element's own character data (not its descendants').
    var text: String {
        children.reduce(into: "") { if case .text(let t) = $1 { $0 += t } }
    }

    /// Serialized with a default-namespace declaration wherever the namespace
    /// differs from the parent's.
    func serialized(parentNamespace: String? = nil) -> String {
        var out = "<" + name
        if namespace != parentNamespace { out += " xmlns='\(XMLEscaping.attribute(namespace))'" }
        for attribute in attributes { out += " \(attribute.name)='\(XMLEscaping.attribute(attribute.value))'" }
        if children.isEmpty { return out + "/>" }
        out += ">"
        for node in children {
            switch node {
            case .element(let e): out += e.serialized(parentNamespace: namespace)
            case .text(let t): out += XMLEscaping.text(t)
            }
        }
        return out + "</\(name)>"
    }
}

/// Escaping for text we write into the stream.
enum XMLEscaping {
    static func text(_ s: String) -> String { escaped(s, quotes: false) }

    static func attribute(_ s: String) -> String { escaped(s, quotes: true) }

    /// True for names safe to write as an element or attribute name (a conservative subset of XML's).
    static func isName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return s.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "." }
    }

    private static func escaped(_ s: String, quotes: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'" where quotes: out += "&apos;"
            case "\"" where quotes: out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
