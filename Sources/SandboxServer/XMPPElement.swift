/// One element of an XMPP stream (a stanza or a nonza), as parsed by
/// `XMLStreamParser`: namespaces resolved, prefixes dropped on elements.
package struct XMPPElement: Equatable {
    struct Attribute: Equatable {
        var name: String      // "xml:lang" for the xml namespace, else local or "prefix:local"
        var value: String
    }
    enum Node: Equatable {
        case element(XMPPElement)
        case text(String)
    }

    package var name: String
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

    /// The first child element named `name` (in `namespace`, when given). Every routed
    /// message asks several times, so no array of the children is made.
    func child(_ name: String, namespace: String? = nil) -> XMPPElement? {
        for node in children {
            if case .element(let e) = node, e.name == name, namespace == nil || e.namespace == namespace { return e }
        }
        return nil
    }

    /// The element's own character data (not its descendants').
    var text: String {
        // Usually one piece: hand it back as it is.
        if children.count == 1, case .text(let t) = children[0] { return t }
        return children.reduce(into: "") { if case .text(let t) = $1 { $0 += t } }
    }

    /// Serialized with a default-namespace declaration wherever the namespace
    /// differs from the parent's.
    package func serialized(parentNamespace: String? = nil) -> String {
        // Bytes, then one String: appending many short pieces to a String cost a routed
        // stanza more than storing it did.
        var out: [UInt8] = []
        out.reserveCapacity(512)
        serialize(into: &out, parentNamespace: parentNamespace)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the serialization's UTF-8 to `out`: one buffer for the whole tree.
    func serialize(into out: inout [UInt8], parentNamespace: String?) {
        out.append(UInt8(ascii: "<"))
        XMLEscaping.appendRaw(name, to: &out)
        if namespace != parentNamespace { XMLEscaping.appendAttribute(name: "xmlns", value: namespace, to: &out) }
        for attribute in attributes { XMLEscaping.appendAttribute(name: attribute.name, value: attribute.value, to: &out) }
        if children.isEmpty {
            out.append(UInt8(ascii: "/"))
            out.append(UInt8(ascii: ">"))
            return
        }
        out.append(UInt8(ascii: ">"))
        for node in children {
            switch node {
            case .element(let e): e.serialize(into: &out, parentNamespace: namespace)
            case .text(let t): XMLEscaping.appendText(t, to: &out)
            }
        }
        XMLEscaping.appendEndTag(name, to: &out)
    }
}

/// Escaping for text we write into the stream, so a parser reads back exactly that text.
enum XMLEscaping {
    static func text(_ s: String) -> String { needsEscaping(s, inAttribute: false) ? escaped(s, inAttribute: false) : s }

    /// For either quote.
    static func attribute(_ s: String) -> String { needsEscaping(s, inAttribute: true) ? escaped(s, inAttribute: true) : s }

    static func appendAttribute(_ s: String, to out: inout String) {
        if needsEscaping(s, inAttribute: true) { out += escaped(s, inAttribute: true) } else { out += s }
    }

    static func appendText(_ s: String, to out: inout [UInt8]) { append(s, inAttribute: false, to: &out) }

    static func appendAttribute(_ s: String, to out: inout [UInt8]) { append(s, inAttribute: true, to: &out) }

    /// ` name='value'`, the value escaped (the name is ours or was parsed as one).
    static func appendAttribute(name: String, value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: " "))
        appendRaw(name, to: &out)
        out.append(UInt8(ascii: "="))
        out.append(UInt8(ascii: "'"))
        appendAttribute(value, to: &out)
        out.append(UInt8(ascii: "'"))
    }

    /// `</name>`.
    static func appendEndTag(_ name: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        out.append(UInt8(ascii: "/"))
        appendRaw(name, to: &out)
        out.append(UInt8(ascii: ">"))
    }

    /// `s`'s UTF-8 as it is (a name, or markup of our own), copied in one piece: appending a
    /// `String.UTF8View` goes byte by byte.
    static func appendRaw(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { out.append(contentsOf: $0) }
    }

    /// One look at the bytes: most text (ids, JIDs, plain words) needs no escaping and is
    /// copied in one piece; the rest goes through `escaped`.
    private static func append(_ s: String, inAttribute: Bool, to out: inout [UInt8]) {
        var s = s
        let copied = s.withUTF8 { bytes -> Bool in
            guard !needsEscaping(bytes, inAttribute: inAttribute) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !copied { out.append(contentsOf: escaped(s, inAttribute: inAttribute).utf8) }
    }

    /// Whether any byte of `s` is one `escaped` changes: most text (ids, JIDs, plain words) has
    /// none, and is then written as it is, without a scalar-by-scalar copy.
    private static func needsEscaping(_ s: String, inAttribute: Bool) -> Bool {
        var s = s
        return s.withUTF8 { needsEscaping($0, inAttribute: inAttribute) }
    }

    private static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>, inAttribute: Bool) -> Bool {
        // One table look-up a byte (every byte of every stanza written comes through here).
        let mask: UInt8 = inAttribute ? 2 : 1
        return escapeTable.withUnsafeBufferPointer { table in
            for b in bytes where table[Int(b)] & mask != 0 { return true }
            return false
        }
    }

    /// Per byte, what `escaped` changes: 1 in text, 2 in an attribute. `&`, `<`, `>`, CR and
    /// the C0 controls XML cannot carry everywhere; `'`, `"`, TAB and LF in attributes only;
    /// 0xEF, which starts U+FFFE and U+FFFF (EF BF BE, EF BF BF), everywhere.
    private static let escapeTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for b in 0..<0x20 { table[b] = 3 }
        for b in [0x26, 0x3C, 0x3E, 0x0D, 0xEF] { table[b] = 3 }
        for b in [0x27, 0x22, 0x09, 0x0A] { table[b] = 2 }
        return table
    }()

    /// True for names safe to write as an element or attribute name (a conservative subset of XML's).
    static func isName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return s.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "." }
    }

    /// CR always as `&#13;` (end-of-line handling would turn CRLF into LF); TAB and LF
    /// as references in attributes (value normalisation would make them spaces);
    /// what XML 1.0 cannot carry even as a reference (most C0 controls, U+FFFE,
    /// U+FFFF) as U+FFFD, so a stored message can never break a client's stream.
    private static func escaped(_ s: String, inAttribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x0D: out += "&#13;"
            case 0x27 where inAttribute: out += "&apos;"
            case 0x22 where inAttribute: out += "&quot;"
            case 0x09 where inAttribute: out += "&#9;"
            case 0x0A where inAttribute: out += "&#10;"
            case 0x09, 0x0A: out.unicodeScalars.append(c)
            case 0..<0x20, 0xFFFE, 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
