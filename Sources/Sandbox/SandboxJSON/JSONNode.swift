// A small JSON model for the REST side: FoundationEssentials has no JSONSerialization,
// and the sandbox needs ordered keys on output and number text kept as sent on input.

/// One node of a JSON document as written: objects keep their member order,
/// numbers their text.
package enum JSONNode: Equatable {
    case null
    case bool(Bool)
    /// The number's text as written (so `22` stays `22` when flattened for signing).
    case number(String)
    case string(String)
    case array([JSONNode])
    case object([(String, JSONNode)])

    package static func == (a: JSONNode, b: JSONNode) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    package static func int(_ v: Int) -> JSONNode { .number(String(v)) }
    package static func optionalString(_ s: String?) -> JSONNode { s.map { .string($0) } ?? .null }
    package static func optionalInt(_ v: Int?) -> JSONNode { v.map { .int($0) } ?? .null }

    package subscript(key: String) -> JSONNode? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    /// Serialized without insignificant whitespace.
    package var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSONNode.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSONNode.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            if let escape = shortEscape(scalar) {
                out += escape
            } else if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// JSON's two-character escapes; `/` needs none and gets none.
    private static func shortEscape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        case "\u{8}": "\\b"
        case "\u{C}": "\\f"
        default: nil
        }
    }
}
