/// Another user's text made inert in HTML: terminal control characters and bidi
/// overrides removed (`TerminalText`), then `& < > " '` as character references, so
/// it is text in an element or a quoted attribute and never markup.
package enum HTMLText {
    /// Text for an element or a quoted attribute; line breaks kept (`newlines`).
    package static func escape(_ text: String, newlines: TerminalText.Newlines = .kept) -> String {
        let clean = TerminalText.sanitize(text, newlines: newlines)
        guard clean.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
            || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }) else { return clean }
        var out = ""
        out.reserveCapacity(clean.utf8.count + 16)
        for character in clean.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A relative path as a URL path: each byte outside `A–Z a–z 0–9 - . _ ~` and `/`
    /// percent-encoded, so a file name's spaces, `#`, `?`, `:` or quotes stay part of
    /// the name (a `:` could otherwise read as a scheme, `javascript:`).
    package static func percentEncodedPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
