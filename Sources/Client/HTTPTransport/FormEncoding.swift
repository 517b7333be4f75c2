/// `application/x-www-form-urlencoded` and query strings as QuickBlox reads them
/// (docs/protocol.md §5, §9): RFC 3986, every byte but the unreserved ones escaped as `%XX`,
/// so `&`, `=`, `+`, `[` and space never reach the server unescaped.
package enum FormEncoding {
    /// `name=value` pairs joined with `&`, each side percent-encoded, in the order given.
    package static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&")
    }

    /// `text` with every byte outside RFC 3986's unreserved set written `%XX`.
    package static func percentEncode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0f)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
