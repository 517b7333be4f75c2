/// A JSON value as compact text, keys sorted: byte for byte what `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` writes (the golden vectors and
/// `JSONValueTextTests` hold them to it), written straight into bytes. The encoder
/// boxes every value on its way, which was most of the time of caching a stream of
/// messages (`send --lines`, `listen`).
extension JSONValue {
    /// The compact, key-sorted text (`/` unescaped; other escapes as `JSONEncoder` makes them).
    package var compactText: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        Self.write(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `JSONValue.object` of `members` as `compactText` writes it, without building the
    /// dictionary: `listen` makes one object a message, and hashing its keys into a
    /// dictionary only to sort them again was a tenth of caching it. The keys must be
    /// distinct (a later duplicate would be written twice, which a dictionary cannot hold).
    package static func compactObjectText(_ members: [(key: String, value: JSONValue)]) -> String {
        let precedes = { (a: (key: String, value: JSONValue), b: (key: String, value: JSONValue)) in
            a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
        }
        // A caller that lists its keys in order (a heard message, most of the time) is not sorted again.
        let inOrder = zip(members, members.dropFirst()).allSatisfy { precedes($0, $1) }
        let sorted = inOrder ? members : members.sorted(by: precedes)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        bytes.append(UInt8(ascii: "{"))
        for (index, member) in sorted.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(member.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            write(member.value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .double(let number):
            // Non-finite numbers never come from a decoder; the encoder refused them too.
            guard number.isFinite else { preconditionFailure("JSONValue holds a non-finite number") }
            var text = number.description
            if text.hasSuffix(".0") { text.removeLast(2) }  // 2.0 is written 2, as the encoder does
            out.append(contentsOf: text.utf8)
        case .string(let text): writeString(text, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // By UTF-8 bytes, which is the encoder's order for the keys QuickBlox uses.
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(members[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Quote and backslash escaped, `\b \f \n \r \t` short, other C0 controls as
    /// `\u00xx`; everything else (DEL, C1, U+2028, `/`) as it is. Runs that need no
    /// escape are copied whole (a byte at a time was most of writing a message object).
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(UInt8(ascii: "u")); out.append(UInt8(ascii: "0")); out.append(UInt8(ascii: "0"))
                    out.append(hexDigits[Int(byte >> 4)]); out.append(hexDigits[Int(byte & 0xF)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
