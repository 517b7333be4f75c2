// Escaping for what the sandbox writes into XML: XMPP streams and the storage endpoint's S3 errors.

/// Escaping for text we write into the stream, so a parser reads back exactly that text.
package enum XMLEscaping {
    package static func text(_ s: String) -> String { needsEscaping(s, inAttribute: false) ? escaped(s, inAttribute: false) : s }

    /// For either quote.
    package static func attribute(_ s: String) -> String { needsEscaping(s, inAttribute: true) ? escaped(s, inAttribute: true) : s }

    package static func appendAttribute(_ s: String, to out: inout String) {
        if needsEscaping(s, inAttribute: true) { out += escaped(s, inAttribute: true) } else { out += s }
    }

    package static func appendText(_ s: String, to out: inout [UInt8]) { append(s, inAttribute: false, to: &out) }

    package static func appendAttribute(_ s: String, to out: inout [UInt8]) { append(s, inAttribute: true, to: &out) }

    /// ` name='value'`, the value escaped (the name is ours or was parsed as one).
    package static func appendAttribute(name: String, value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: " "))
        appendRaw(name, to: &out)
        out.append(UInt8(ascii: "="))
        out.append(UInt8(ascii: "'"))
        appendAttribute(value, to: &out)
        out.append(UInt8(ascii: "'"))
    }

    /// `</name>`.
    package static func appendEndTag(_ name: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        out.append(UInt8(ascii: "/"))
        appendRaw(name, to: &out)
        out.append(UInt8(ascii: ">"))
    }

    /// `s`'s UTF-8 as it is (a name, or markup of our own), copied in one piece: appending a
    /// `String.UTF8View` goes byte by byte.
    package static func appendRaw(_ s: String, to out: inout [UInt8]) {
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
    package static func isName(_ s: String) -> Bool {
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
