/// Cuts an XMPP stream, as a server writes it, into its top-level elements without
/// parsing them: the load driver reads tens of thousands of stanzas a second on the
/// same two cores as the sandbox it measures, so it only finds where each element
/// ends (tags, quotes, self-closing tags) and looks at the few bytes it needs.
///
/// It trusts what it reads to be well-formed (the sandbox's own output); it never
/// expands entities, and a comment, CDATA section or DOCTYPE is reported as malformed.
package struct StanzaScanner {
    /// What the next call to `next()` found.
    package enum Item: Equatable {
        /// `<stream:stream …>`: the server opened its stream.
        case streamOpened
        /// One whole child of the stream element, as sent.
        case element(ScannedElement)
        /// `</stream:stream>`.
        case streamClosed
        /// Bytes no XMPP server sends (`<!`, an end tag without a start).
        case malformed
    }

    private var buffer: [UInt8] = []
    /// Where scanning resumes: the start of the first tag not yet read whole.
    private var position = 0
    /// 0 before the stream header, 1 inside the stream, more inside a stanza.
    private var depth = 0
    /// Where the stanza being read began.
    private var elementStart = 0
    /// Malformed input was reported: nothing more is read until `reset()`.
    private var isBroken = false

    package init() {}

    /// Bytes read but not yet handed out as items (tests check nothing is kept).
    package var bufferedCount: Int { buffer.count - keptFrom }

    /// The first byte still needed: the open stanza's start, else the resume position.
    private var keptFrom: Int { depth >= 2 ? elementStart : position }

    /// Adds bytes read from the stream.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        // Drop what has been handed out once it is most of the buffer, so it does not grow.
        let keep = keptFrom
        if keep > 0 && keep >= buffer.count / 2 {
            buffer.removeFirst(keep)
            position -= keep
            elementStart = max(0, elementStart - keep)
        }
        buffer.append(contentsOf: bytes)
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Starts over for a new stream (after STARTTLS and after SASL success).
    package mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
        position = 0
        depth = 0
        elementStart = 0
        isBroken = false
    }

    /// The next item, or nil when the bytes so far end inside a tag or a stanza.
    package mutating func next() -> Item? {
        guard !isBroken else { return nil }
        var cursor = Cursor(position: position, depth: depth, elementStart: elementStart)
        let item = buffer.withUnsafeBufferPointer { cursor.next(in: $0) }
        position = cursor.position
        depth = cursor.depth
        elementStart = cursor.elementStart
        if item == .malformed { isBroken = true }
        return item
    }

    /// The scanning state, apart from the buffer it reads.
    private struct Cursor {
        var position: Int
        var depth: Int
        var elementStart: Int

        mutating func next(in bytes: UnsafeBufferPointer<UInt8>) -> Item? {
            let count = bytes.count
            var i = position
            while i < count {
                // Text: skip to the next tag.
                guard bytes[i] == UInt8(ascii: "<") else {
                    i += 1
                    continue
                }
                guard i + 1 < count else { return nil }
                let kind = bytes[i + 1]
                if kind == UInt8(ascii: "!") { return .malformed }
                guard let close = StanzaScanner.tagEnd(bytes, from: i + 1, count: count) else { return nil }
                let after = close + 1
                position = after
                if kind == UInt8(ascii: "?") {
                    // The XML declaration before the stream header.
                    i = after
                    continue
                }
                if kind == UInt8(ascii: "/") {
                    depth -= 1
                    if depth < 0 { return .malformed }
                    if depth == 0 { return .streamClosed }
                    if depth == 1 { return .element(ScannedElement(bytes: Array(bytes[elementStart..<after]))) }
                    i = after
                    continue
                }
                let selfClosing = bytes[close - 1] == UInt8(ascii: "/")
                if depth == 0 {
                    depth = 1
                    return .streamOpened
                }
                if depth == 1 {
                    elementStart = i
                    if selfClosing { return .element(ScannedElement(bytes: Array(bytes[i..<after]))) }
                }
                if !selfClosing { depth += 1 }
                i = after
            }
            return nil
        }
    }

    /// The index of the `>` that ends the tag starting before `from`, skipping quoted values.
    private static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, count: Int) -> Int? {
        var quote: UInt8 = 0
        var i = from
        while i < count {
            let b = bytes[i]
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                return i
            }
            i += 1
        }
        return nil
    }
}

/// One top-level element as its bytes, with the few lookups the driver needs.
package struct ScannedElement: Equatable {
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) { self.bytes = bytes }

    package init(_ text: String) { bytes = Array(text.utf8) }

    /// The qualified name of the element (`message`, `stream:features`, `a`).
    package var name: String {
        String(decoding: bytes.dropFirst().prefix { !Self.endsName($0) }, as: UTF8.self)
    }

    /// Whether the element's name is `name` (no String made).
    package func isNamed(_ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard bytes.count > count + 1, Self.endsName(bytes[count + 1]) else { return false }
        return name.withUTF8Buffer { name in
            for i in 0..<count where bytes[i + 1] != name[i] { return false }
            return true
        }
    }

    /// The value of attribute `name` of the element's own start tag, as written (entities left as they are).
    package func attribute(_ name: String) -> String? {
        let tagEnd = bytes.firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
        let key = Array(" \(name)=".utf8)
        guard let at = Self.find(key, in: bytes, from: 0, to: tagEnd) else { return nil }
        let quoteIndex = at + key.count
        guard quoteIndex < tagEnd else { return nil }
        let quote = bytes[quoteIndex]
        guard let end = bytes[(quoteIndex + 1)..<tagEnd].firstIndex(of: quote) else { return nil }
        return String(decoding: bytes[(quoteIndex + 1)..<end], as: UTF8.self)
    }

    /// The bytes between `<name>` (or `<name …>`) and `</name>` of the first such descendant.
    package func childText(_ name: String) -> ArraySlice<UInt8>? {
        let open = Array("<\(name)".utf8)
        var from = 1
        while let at = Self.find(open, in: bytes, from: from, to: bytes.count) {
            let next = at + open.count
            guard next < bytes.count else { return nil }
            if bytes[next] == UInt8(ascii: ">") || bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "/") {
                guard let tagEnd = bytes[next...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                if bytes[tagEnd - 1] == UInt8(ascii: "/") { return bytes[tagEnd..<tagEnd] }
                let close = Array("</\(name)>".utf8)
                guard let end = Self.find(close, in: bytes, from: tagEnd + 1, to: bytes.count) else { return nil }
                return bytes[(tagEnd + 1)..<end]
            }
            from = next
        }
        return nil
    }

    /// Whether a descendant named `name` (with that prefix, if any) is in the element.
    package func contains(child name: String) -> Bool {
        let open = Array("<\(name)".utf8)
        var from = 1
        while let at = Self.find(open, in: bytes, from: from, to: bytes.count) {
            let next = at + open.count
            if next < bytes.count, Self.endsName(bytes[next]) { return true }
            from = next
        }
        return false
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// The first index of `needle` in `haystack[from..<to]`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, to: Int) -> Int? {
        guard let first = needle.first, to - from >= needle.count else { return nil }
        var i = from
        let last = to - needle.count
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
