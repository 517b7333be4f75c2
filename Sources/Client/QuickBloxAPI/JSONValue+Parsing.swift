/// Reading JSON text into a `JSONValue` by hand: Foundation's `JSONDecoder` spent
/// about half a millisecond of every offline command reading the config and the
/// session. Reads what that decoder read (GoldenVectors' table binds
/// both this and the sandbox's reader): RFC 8259, plus the leniencies of
/// Foundation that the client relied on (a byte order mark, a trailing comma,
/// nesting to 512 levels). An integer that fits `Int` is `.int`, any other number
/// `.double` (a number beyond `Double` is an error).
extension JSONValue {
    /// Why a document is not JSON: where (a byte offset) and what was wrong.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package var offset: Int
        package var reason: String
        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// One JSON document, whitespace allowed around it, nothing after it.
    package init(parsing bytes: [UInt8]) throws(ParseError) {
        self = try bytes.withUnsafeBufferPointer { buffer throws(ParseError) in
            var reader = JSONReader(buffer)
            return try reader.document()
        }
    }

    package init(parsing text: String) throws(ParseError) {
        try self.init(parsing: Array(text.utf8))
    }
}

/// One pass over the bytes, left to right; recursion only for nesting, bounded.
private struct JSONReader {
    static let maxDepth = 512
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func fail(_ reason: String) -> JSONValue.ParseError { JSONValue.ParseError(offset: index, reason: reason) }

    mutating func document() throws(JSONValue.ParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        let value = try value()
        skipWhitespace()
        guard index == bytes.count else { throw fail("data after the value") }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func value() throws(JSONValue.ParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw fail("a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("a value was expected")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONValue.ParseError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw fail("not a literal") }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] { throw fail("not a literal") }
        index += count
    }

    mutating func enter() throws(JSONValue.ParseError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nested deeper than \(Self.maxDepth)") }
        index += 1
    }

    mutating func array() throws(JSONValue.ParseError) -> JSONValue {
        try enter()
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; depth -= 1; return .array(items) }
        while true {
            items.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw fail("unclosed array") }
            switch bytes[index] {
            case UInt8(ascii: "]"): index += 1; depth -= 1; return .array(items)
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                // A trailing comma, as Foundation's decoder allows.
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; depth -= 1; return .array(items) }
            default: throw fail("',' or ']' was expected")
            }
        }
    }

    mutating func object() throws(JSONValue.ParseError) -> JSONValue {
        try enter()
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; depth -= 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("a string key was expected") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("':' was expected") }
            index += 1
            members[key] = try value()
            skipWhitespace()
            guard index < bytes.count else { throw fail("unclosed object") }
            switch bytes[index] {
            case UInt8(ascii: "}"): index += 1; depth -= 1; return .object(members)
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; depth -= 1; return .object(members) }
            default: throw fail("',' or '}' was expected")
            }
        }
    }

    /// A string at `index` (its opening quote); its UTF-8 is checked, escapes decoded.
    mutating func string() throws(JSONValue.ParseError) -> String {
        index += 1
        let start = index
        // The common case: no escape, so the bytes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return try text(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw fail("a control character in a string") }
            index += 1
        }
        var decoded = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try decoded.withUnsafeBufferPointer { buffer throws(JSONValue.ParseError) in try text(buffer) }
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case ..<0x20:
                throw fail("a control character in a string")
            default:
                decoded.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    func text(_ utf8: UnsafeBufferPointer<UInt8>) throws(JSONValue.ParseError) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
        return text
    }

    /// One escape at `index` (its backslash), its character appended as UTF-8.
    mutating func escape(into decoded: inout [UInt8]) throws(JSONValue.ParseError) {
        guard index + 1 < bytes.count else { throw fail("unterminated string") }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(letter)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hexQuad())
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw fail("a lone surrogate")
                }
                index += 2
                let low = UInt32(try hexQuad())
                guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw fail("a lone surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("not a Unicode scalar") }
            decoded.append(contentsOf: UTF8.encode(unicode)!)
        default:
            throw fail("an unknown escape")
        }
    }

    mutating func hexQuad() throws(JSONValue.ParseError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw fail("a short \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("a short \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// RFC 8259's number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func number() throws(JSONValue.ParseError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a digit was expected") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail("a leading zero") }
        } else {
            skipDigits()
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a digit was expected after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a digit was expected in the exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw fail("a number beyond Double") }
        return .double(value)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
}
