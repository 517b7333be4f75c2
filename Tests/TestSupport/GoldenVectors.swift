// One table of golden vectors for the twins the client and the sandbox keep on
// purpose (so that each checks the other: docs/architecture.md): JSON, XML escaping and ObjectIds. Each side runs its own
// implementation against it from its own test target; neither imports the other's
// code, so each checks the other through this table. Data only.

/// The shared table. Inputs with what every implementation must write or read.
package enum GoldenVectors {
    /// A character XML 1.0 cannot carry, not even as a character reference, is
    /// written as this instead (U+FFFD REPLACEMENT CHARACTER) by both escapers.
    package static let replacement = "\u{FFFD}"

    /// Equality scalar by scalar: Swift's `==` on strings would hide a parser that
    /// normalises (`e` + U+0301 equals `é` canonically).
    package static func sameScalars(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        default: return false
        }
    }
}

// MARK: - XML text and attribute escaping

extension GoldenVectors {
    /// Text put into a stanza: escaped as element content, escaped as an attribute
    /// value (the same for either quote), and what an XML 1.0 parser gives back.
    package struct XMLText: Sendable, CustomStringConvertible {
        package let name: String
        package let input: String
        package let text: String
        package let attribute: String
        package let readBack: String
        package var description: String { name }

        init(_ name: String, _ input: String, text: String, attribute: String? = nil, readBack: String? = nil) {
            self.name = name
            self.input = input
            self.text = text
            self.attribute = attribute ?? text
            self.readBack = readBack ?? input
        }
    }

    /// `&<>` always escaped; quotes only in attributes; CR always `&#13;` (end-of-line
    /// normalisation would turn CRLF into LF); TAB and LF as references in attributes
    /// (attribute-value normalisation would turn them into spaces); characters XML
    /// cannot carry become U+FFFD; everything else, astral planes included, as it is.
    package static let xmlText: [XMLText] = [
        XMLText("plain ASCII", "hello, world", text: "hello, world"),
        XMLText("empty", "", text: ""),
        XMLText("ampersand", "fish & chips", text: "fish &amp; chips"),
        XMLText("less-than and greater-than", "<b>bold</b>", text: "&lt;b&gt;bold&lt;/b&gt;"),
        XMLText("CDATA end marker", "]]>", text: "]]&gt;"),
        XMLText("double quote", "say \"hi\"", text: "say \"hi\"", attribute: "say &quot;hi&quot;"),
        XMLText("apostrophe", "it's", text: "it's", attribute: "it&apos;s"),
        XMLText("every XML-special character", "&<>\"'", text: "&amp;&lt;&gt;\"'", attribute: "&amp;&lt;&gt;&quot;&apos;"),
        XMLText("escaped text is escaped again", "&amp; &#38; &lt;", text: "&amp;amp; &amp;#38; &amp;lt;"),
        XMLText("TAB", "a\tb", text: "a\tb", attribute: "a&#9;b"),
        XMLText("LF", "a\nb", text: "a\nb", attribute: "a&#10;b"),
        XMLText("CR", "a\rb", text: "a&#13;b"),
        XMLText("CRLF", "line 1\r\nline 2\r\n", text: "line 1&#13;\nline 2&#13;\n", attribute: "line 1&#13;&#10;line 2&#13;&#10;"),
        XMLText("lone CR at the end", "end\r", text: "end&#13;"),
        XMLText("spaces are kept", "  two  spaces  ", text: "  two  spaces  "),
        XMLText("NUL", "a\u{0}b", text: "a\u{FFFD}b", readBack: "a\u{FFFD}b"),
        XMLText("ESC of a terminal sequence", "\u{1B}[31mred", text: "\u{FFFD}[31mred", readBack: "\u{FFFD}[31mred"),
        XMLText("noncharacters U+FFFE and U+FFFF", "a\u{FFFE}b\u{FFFF}c", text: "a\u{FFFD}b\u{FFFD}c", readBack: "a\u{FFFD}b\u{FFFD}c"),
        XMLText("DEL and C1 controls are carried", "\u{7F}\u{80}\u{85}\u{9B}31m", text: "\u{7F}\u{80}\u{85}\u{9B}31m"),
        XMLText("line and paragraph separators", "a\u{2028}b\u{2029}c", text: "a\u{2028}b\u{2029}c"),
        XMLText("Latin, CJK and RTL text", "héllo 中文 שלום", text: "héllo 中文 שלום"),
        XMLText("combining mark is not normalised", "e\u{301}", text: "e\u{301}"),
        XMLText("astral-plane emoji", "😀🧪", text: "😀🧪"),
        XMLText("emoji ZWJ sequence, flag and skin tone", "👩‍👩‍👧‍👦 🇫🇷 👍🏽", text: "👩‍👩‍👧‍👦 🇫🇷 👍🏽"),
        XMLText("emoji between specials", "<😀&😀>", text: "&lt;😀&amp;😀&gt;"),
        XMLText("the highest code point", "\u{10FFFF}", text: "\u{10FFFF}"),
    ] + c0Controls + [hundredKilobytes]

    /// Each C0 control other than TAB, LF and CR (NUL has its own row): XML 1.0 has no
    /// way to carry them, so both sides write U+FFFD rather than break the stream.
    static let c0Controls: [XMLText] = (0x01...0x1F).filter { ![0x09, 0x0A, 0x0D].contains($0) }.map { value in
        let control = String(Unicode.Scalar(UInt8(value)))
        let hex = String(value, radix: 16, uppercase: true)
        return XMLText("C0 control U+" + String(repeating: "0", count: 4 - hex.count) + hex, "x" + control + "y",
                       text: "x\u{FFFD}y", readBack: "x\u{FFFD}y")
    }

    /// A 100 KB body mixing everything above that a parser gives back unchanged.
    static let hundredKilobytes: XMLText = {
        let unit = "Lorem <ipsum> & \"dolor\" 'sit'\r\n\tamet 😀 ]]> "
        let text = "Lorem &lt;ipsum&gt; &amp; \"dolor\" 'sit'&#13;\n\tamet 😀 ]]&gt; "
        let attribute = "Lorem &lt;ipsum&gt; &amp; &quot;dolor&quot; &apos;sit&apos;&#13;&#10;&#9;amet 😀 ]]&gt; "
        let count = 100 * 1024 / unit.utf8.count + 1
        return XMLText("100 KB body", String(repeating: unit, count: count),
                       text: String(repeating: text, count: count), attribute: String(repeating: attribute, count: count))
    }()
}

// MARK: - JSON

extension GoldenVectors {
    /// A JSON value neither side's type: numbers are their text as written, objects keep
    /// member order (a reader that does not keep order compares them as sets).
    package indirect enum JSON: Sendable, Equatable, CustomStringConvertible {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([JSON])
        case object([Member])

        package struct Member: Sendable, Equatable {
            package let key: String
            package let value: JSON
            package init(_ key: String, _ value: JSON) { self.key = key; self.value = value }
        }

        package var description: String {
            switch self {
            case .null: return "null"
            case .bool(let value): return String(value)
            case .number(let text): return text
            case .string(let text): return "\"" + (text.utf8.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
            case .array(let items): return "[" + items.map(\.description).joined(separator: ",") + "]"
            case .object(let members): return "{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
            }
        }
    }

    /// A document and the value every reader gives for it; `value` nil: every reader rejects it.
    package struct JSONReading: Sendable, CustomStringConvertible {
        package let name: String
        package let bytes: [UInt8]
        package let value: JSON?
        package var description: String { name }

        init(_ name: String, _ text: String, _ value: JSON?) {
            self.init(name, bytes: Array(text.utf8), value)
        }

        init(_ name: String, bytes: [UInt8], _ value: JSON?) {
            self.name = name
            self.bytes = bytes
            self.value = value
        }
    }

    /// A value and the exact text every writer gives for it (keys sorted: the client
    /// sorts them, the sandbox keeps the order it was given).
    package struct JSONWriting: Sendable, CustomStringConvertible {
        package let name: String
        package let value: JSON
        package let text: String
        package var description: String { name }
    }

    package static let jsonReadings: [JSONReading] = [
        JSONReading("null", "null", .null),
        JSONReading("true and false", "[true,false]", .array([.bool(true), .bool(false)])),
        JSONReading("integers", "[0,42,-42,-0]", .array([.number("0"), .number("42"), .number("-42"), .number("-0")])),
        JSONReading("beyond 2^53 stays exact", "9007199254740993", .number("9007199254740993")),
        JSONReading("beyond Int64 is still a number", "12345678901234567890", .number("12345678901234567890")),
        JSONReading("fractions", "[1.5,-0.25,0.1]", .array([.number("1.5"), .number("-0.25"), .number("0.1")])),
        JSONReading("exponents", "[1e5,1E+2,-1.5e-3,2.5E-1]",
                    .array([.number("1e5"), .number("1E+2"), .number("-1.5e-3"), .number("2.5E-1")])),
        JSONReading("short string escapes", #""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
        JSONReading("solidus escaped or not", #"["\/","/"]"#, .array([.string("/"), .string("/")])),
        JSONReading("\\u escapes in either case", #""\u00e9\u00E9\u4E2D""#, .string("éé中")),
        JSONReading("\\u escapes of controls", #""\u0000\u0001\u001f\u007f""#, .string("\u{0}\u{1}\u{1F}\u{7F}")),
        JSONReading("surrogate pair escape", #""\uD83D\uDE00 \ud83e\uddea""#, .string("😀 🧪")),
        JSONReading("raw UTF-8, astral plane included", "\"héllo 中文 😀 👩‍👩‍👧‍👦\"", .string("héllo 中文 😀 👩‍👩‍👧‍👦")),
        JSONReading("raw DEL, C1 and U+2028", "\"\u{7F}\u{85}\u{2028}\"", .string("\u{7F}\u{85}\u{2028}")),
        JSONReading("empty containers", #"[[],{},""]"#, .array([.array([]), .object([]), .string("")])),
        JSONReading("whitespace around tokens", " \t\r\n[ 1 ,\n2 ] \n", .array([.number("1"), .number("2")])),
        JSONReading("nesting", #"{"b":[1,{"c":[[],{"d":null}]}],"a":{"e":"f"}}"#, .object([
            .init("b", .array([.number("1"), .object([.init("c", .array([.array([]), .object([.init("d", .null)])]))])])),
            .init("a", .object([.init("e", .string("f"))])),
        ])),
        JSONReading("60 levels deep", String(repeating: "[", count: 60) + String(repeating: "]", count: 60),
                    (1..<60).reduce(JSON.array([])) { inner, _ in .array([inner]) }),
        JSONReading("100 KB string", hundredKilobyteJSON.text, .string(hundredKilobyteJSON.value)),
        // What a malformed document gives: a rejection, from both.
        JSONReading("empty document", "", nil),
        JSONReading("only whitespace", " \n", nil),
        JSONReading("unclosed array", "[1,2", nil),
        JSONReading("unclosed object", #"{"a":1"#, nil),
        JSONReading("unterminated string", #""abc"#, nil),
        JSONReading("missing colon", #"{"a" 1}"#, nil),
        JSONReading("missing value", #"{"a":}"#, nil),
        JSONReading("key not a string", "{1:2}", nil),
        JSONReading("missing comma", "[1 2]", nil),
        JSONReading("single quotes", "['a']", nil),
        JSONReading("misspelt literals", "[tru]", nil),
        JSONReading("truncated null", "nul", nil),
        JSONReading("NaN", "NaN", nil),
        JSONReading("Infinity", "[Infinity]", nil),
        JSONReading("plus sign", "+1", nil),
        JSONReading("leading dot", ".5", nil),
        JSONReading("leading zero", "[01]", nil),
        JSONReading("trailing dot", "1.", nil),
        JSONReading("bare minus", "-", nil),
        JSONReading("empty exponent", "1e", nil),
        JSONReading("number beyond Double", "1e400", nil),
        JSONReading("unknown escape", #""\x""#, nil),
        JSONReading("short \\u escape", #""\u12""#, nil),
        JSONReading("lone high surrogate", #""\uD83D""#, nil),
        JSONReading("lone low surrogate", #""\uDE00""#, nil),
        JSONReading("high surrogate then a letter", #""\uD83Dx""#, nil),
        JSONReading("raw control character in a string", "\"a\u{1}b\"", nil),
        JSONReading("raw LF in a string", "\"a\nb\"", nil),
        JSONReading("data after the value", "[1] x", nil),
        JSONReading("two values", "{} {}", nil),
        JSONReading("invalid UTF-8 in a string", bytes: [0x22, 0xC3, 0x28, 0x22], nil),
    ]

    /// Documents the two readers part on, each side with what it does: the sandbox
    /// refuses what no correct writer sends; the client's reader keeps the leniency
    /// of Foundation's decoder, which it replaced, and reads exactly `value`.
    package static let jsonToleratedOnlyByTheClient: [JSONReading] = [
        JSONReading("trailing comma in an array", "[1,]", .array([.number("1")])),
        JSONReading("trailing comma in an object", #"{"a":1,}"#, .object([.init("a", .number("1"))])),
        JSONReading("byte order mark", "\u{FEFF}[1]", .array([.number("1")])),
        JSONReading("100 levels deep", String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
                    (1..<100).reduce(JSON.array([])) { inner, _ in .array([inner]) }),
    ]

    package static let jsonWritings: [JSONWriting] = [
        JSONWriting(name: "literals", value: .array([.null, .bool(true), .bool(false)]), text: "[null,true,false]"),
        JSONWriting(name: "integers", value: .array([.number("0"), .number("-42"), .number("9007199254740993")]),
                    text: "[0,-42,9007199254740993]"),
        JSONWriting(name: "fractions", value: .array([.number("1.5"), .number("-0.25")]), text: "[1.5,-0.25]"),
        JSONWriting(name: "quote and backslash", value: .string("say \"hi\" \\o/"), text: #""say \"hi\" \\o/""#),
        JSONWriting(name: "solidus is not escaped", value: .string("a/b</script>"), text: #""a/b</script>""#),
        JSONWriting(name: "short escapes", value: .string("\u{8}\u{C}\n\r\t"), text: #""\b\f\n\r\t""#),
        JSONWriting(name: "other C0 controls as lowercase \\u00xx", value: .string("\u{0}\u{1}\u{B}\u{1B}\u{1F}"),
                    text: #""\u0000\u0001\u000b\u001b\u001f""#),
        JSONWriting(name: "DEL, C1 and U+2028 as they are", value: .string("\u{7F}\u{85}\u{2028}"), text: "\"\u{7F}\u{85}\u{2028}\""),
        JSONWriting(name: "astral plane as UTF-8, not surrogate escapes", value: .string("😀 👩‍👩‍👧‍👦"), text: "\"😀 👩‍👩‍👧‍👦\""),
        JSONWriting(name: "empty containers", value: .array([.array([]), .object([]), .string("")]), text: #"[[],{},""]"#),
        JSONWriting(name: "nesting with sorted keys", value: .object([
            .init("a", .array([.number("1"), .object([.init("b", .null)])])),
            .init("c", .object([.init("d", .string("e"))])),
        ]), text: #"{"a":[1,{"b":null}],"c":{"d":"e"}}"#),
        JSONWriting(name: "100 KB string", value: .string(hundredKilobyteJSON.value), text: hundredKilobyteJSON.written),
    ]

    /// A 100 KB string: as read (`text`, with every kind of escape), as a value,
    /// and as both writers write it.
    static let hundredKilobyteJSON: (text: String, value: String, written: String) = {
        let read = #"Lorem \"ipsum\" \\ \/ \n\t\r é 😀 \uD83D\uDE00 \u0007 "#
        let value = "Lorem \"ipsum\" \\ / \n\t\r é 😀 😀 \u{7} "
        let written = #"Lorem \"ipsum\" \\ / \n\t\r é 😀 😀 \u0007 "#
        let count = 100 * 1024 / value.utf8.count + 1
        return ("\"" + String(repeating: read, count: count) + "\"", String(repeating: value, count: count),
                "\"" + String(repeating: written, count: count) + "\"")
    }()
}

// MARK: - ObjectId

extension GoldenVectors {
    /// A creation time (unix seconds) and the first 8 hex digits of every id made at it.
    package struct ObjectIdTime: Sendable, CustomStringConvertible {
        package let unixTime: UInt32
        package let prefix: String
        package var description: String { "\(unixTime) → \(prefix)" }
    }

    package static let objectIdTimes: [ObjectIdTime] = [
        ObjectIdTime(unixTime: 0, prefix: "00000000"),
        ObjectIdTime(unixTime: 1, prefix: "00000001"),
        ObjectIdTime(unixTime: 0x6560_0000, prefix: "65600000"),
        ObjectIdTime(unixTime: 1_700_000_000, prefix: "6553f100"),
        ObjectIdTime(unixTime: 2_000_000_000, prefix: "77359400"),
        ObjectIdTime(unixTime: UInt32.max, prefix: "ffffffff"),
    ]

    /// Text and whether it is an ObjectId (24 hex digits; readers accept either case).
    package static let objectIdCandidates: [(text: String, isObjectId: Bool)] = [
        ("65600000deadbeef01fffffe", true),
        ("65600000DEADBEEF01FFFFFE", true),
        ("000000000000000000000000", true),
        ("ffffffffffffffffffffffff", true),
        ("", false),
        ("65600000deadbeef01fffff", false),
        ("65600000deadbeef01fffffe0", false),
        ("65600000deadbeef01fffffg", false),
        ("65600000-deadbeef-01fffe", false),
        (" 5600000deadbeef01fffffe", false),
        ("６5600000deadbeef01fffffe", false),
        ("0x600000deadbeef01fffffe", false),
    ]

    /// How many ids one generator makes in a row for the checks that every id is
    /// 24 lowercase hex digits, all are distinct, and each sorts after the one before.
    package static let objectIdRunLength = 20_000

    /// Whether `id` is 24 lowercase hex digits, as every id a generator makes must be.
    package static func isLowercaseObjectId(_ id: String) -> Bool {
        id.utf8.count == 24 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

// MARK: - Push messages

extension GoldenVectors {
    /// A push's text and custom parameters (docs/protocol.md §14) and the `event[message]`
    /// of each form: universal (what chatctl sends without a channel, which the sandbox keeps
    /// as it is), APNs's and GCM's (what chatctl sends for that channel, and what the sandbox
    /// makes of the universal form for it). Parameter keys sort after `aps` and `message`,
    /// where chatctl's writer (keys sorted) and the sandbox's (keys in order) agree.
    package struct PushMessage: Sendable, CustomStringConvertible {
        package let name: String
        package let text: String
        package let data: [(key: String, value: String)]
        package let universal: String
        package let apns: String
        package let gcm: String
        package var description: String { name }
    }

    package static let pushMessages: [PushMessage] = [
        PushMessage(name: "the JavaScript SDK's spec", text: "hello QuickBlox!", data: [],
                    universal: "aGVsbG8gUXVpY2tCbG94IQ==",
                    apns: "payload=eyJhcHMiOnsiYWxlcnQiOiJoZWxsbyBRdWlja0Jsb3ghIn19",
                    gcm: "data.message=aGVsbG8rUXVpY2tCbG94JTIx"),
        PushMessage(name: "the documentation's example", text: "I love M&M's! Especially red one!", data: [],
                    universal: "SSBsb3ZlIE0mTSdzISBFc3BlY2lhbGx5IHJlZCBvbmUh",
                    apns: "payload=eyJhcHMiOnsiYWxlcnQiOiJJIGxvdmUgTSZNJ3MhIEVzcGVjaWFsbHkgcmVkIG9uZSEifX0=",
                    gcm: "data.message=SStsb3ZlK00lMjZNJTI3cyUyMStFc3BlY2lhbGx5K3JlZCtvbmUlMjE="),
        PushMessage(name: "non-ASCII", text: "Привет, мир 👋", data: [],
                    universal: "0J/RgNC40LLQtdGCLCDQvNC40YAg8J+Riw==",
                    apns: "payload=eyJhcHMiOnsiYWxlcnQiOiLQn9GA0LjQstC10YIsINC80LjRgCDwn5GLIn19",
                    gcm: "data.message=JUQwJTlGJUQxJTgwJUQwJUI4JUQwJUIyJUQwJUI1JUQxJTgyJTJDKyVEMCVCQyVEMCVCOCVEMSU4MCslRjAlOUYlOTElOEI="),
        PushMessage(name: "quotes, a backslash and a line break", text: "say \"hi\"\nback\\slash", data: [],
                    universal: "c2F5ICJoaSIKYmFja1xzbGFzaA==",
                    apns: "payload=eyJhcHMiOnsiYWxlcnQiOiJzYXkgXCJoaVwiXG5iYWNrXFxzbGFzaCJ9fQ==",
                    gcm: "data.message=c2F5KyUyMmhpJTIyJTBBYmFjayU1Q3NsYXNo"),
        PushMessage(name: "custom parameters", text: "New order", data: [(key: "order_id", value: "1234"), (key: "user_id", value: "234")],
                    universal: "eyJtZXNzYWdlIjoiTmV3IG9yZGVyIiwib3JkZXJfaWQiOiIxMjM0IiwidXNlcl9pZCI6IjIzNCJ9",
                    apns: "payload=eyJhcHMiOnsiYWxlcnQiOiJOZXcgb3JkZXIifSwib3JkZXJfaWQiOiIxMjM0IiwidXNlcl9pZCI6IjIzNCJ9",
                    gcm: "data.message=TmV3K29yZGVy&data.order_id=MTIzNA==&data.user_id=MjM0"),
        PushMessage(name: "a parameter that needs escaping", text: "Ping", data: [(key: "url", value: "https://example.com/a?b=c&d=e f")],
                    universal: "eyJtZXNzYWdlIjoiUGluZyIsInVybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vYT9iPWMmZD1lIGYifQ==",
                    apns: "payload=eyJhcHMiOnsiYWxlcnQiOiJQaW5nIn0sInVybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20vYT9iPWMmZD1lIGYifQ==",
                    gcm: "data.message=UGluZw==&data.url=aHR0cHMlM0ElMkYlMkZleGFtcGxlLmNvbSUyRmElM0ZiJTNEYyUyNmQlM0RlK2Y="),
    ]
}
