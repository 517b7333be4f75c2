#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import QuickBloxAPI
import TestSupport

/// The client's JSON (JSONValue read by its own reader, `JSONValue(parsing:)`, written
/// by the request encoder) against the table the sandbox's JSONNode passes too.
@Suite struct JSONValueGoldenTests {
    typealias Golden = GoldenVectors.JSON

    static func read(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONValue(parsing: bytes)
    }

    /// Numbers compare by value (the client keeps an Int or a Double, not the text);
    /// objects as sets of members (the client keeps a dictionary).
    static func matches(_ value: JSONValue, _ golden: Golden) -> Bool {
        switch (value, golden) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .number(text)): return Int(text).map { $0 == a } ?? (Double(text) == Double(a))
        case let (.double(a), .number(text)): return Double(text) == a
        case let (.string(a), .string(b)): return GoldenVectors.sameScalars(a, b)
        case let (.array(a), .array(b)): return a.count == b.count && zip(a, b).allSatisfy(matches)
        case let (.object(a), .object(b)):
            return a.count == b.count && b.allSatisfy { member in a[member.key].map { matches($0, member.value) } ?? false }
        default: return false
        }
    }

    static func clientValue(_ golden: Golden) -> JSONValue {
        switch golden {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let text): return Int(text).map(JSONValue.int) ?? .double(Double(text) ?? .nan)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(clientValue))
        case .object(let members): return .object(Dictionary(uniqueKeysWithValues: members.map { ($0.key, clientValue($0.value)) }))
        }
    }

    @Test(arguments: GoldenVectors.jsonReadings)
    func reads(_ vector: GoldenVectors.JSONReading) {
        let value = Self.read(vector.bytes)
        if let expected = vector.value {
            #expect(value.map { Self.matches($0, expected) } == true, "read \(String(describing: value))")
        } else {
            #expect(value == nil, "a malformed document is rejected, not read as \(String(describing: value))")
        }
    }

    @Test(arguments: GoldenVectors.jsonToleratedOnlyByTheClient)
    func toleratesWhatFoundationTolerated(_ vector: GoldenVectors.JSONReading) throws {
        let value = try #require(Self.read(vector.bytes))
        #expect(Self.matches(value, try #require(vector.value)))
    }

    @Test(arguments: GoldenVectors.jsonWritings)
    func writesAndReadsBack(_ vector: GoldenVectors.JSONWriting) throws {
        let written = QuickBloxClient.encode(Self.clientValue(vector.value))
        #expect(GoldenVectors.sameScalars(String(decoding: written, as: UTF8.self), vector.text))
        let back = try #require(Self.read(Array(vector.text.utf8)))
        #expect(Self.matches(back, vector.value))
    }

    /// The cache's and `--json`'s writer gives the table's text too.
    @Test(arguments: GoldenVectors.jsonWritings)
    func compactTextWritesTheGoldenText(_ vector: GoldenVectors.JSONWriting) {
        #expect(GoldenVectors.sameScalars(Self.clientValue(vector.value).compactText, vector.text))
    }
}

/// What the golden table leaves open: which numbers are `.int`, the nesting bound.
@Suite struct JSONValueParsingTests {
    @Test(arguments: [("42", JSONValue.int(42)), ("-0", .int(0)), ("1.5", .double(1.5)), ("1e2", .double(100)),
                      ("9223372036854775807", .int(Int.max)), ("9223372036854775808", .double(9223372036854775808))])
    func anIntegerThatFitsIsAnIntEverythingElseADouble(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == expected)
    }

    @Test func nestingStopsAt512LevelsWithAnErrorNotACrash() throws {
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONValue(parsing: allowed) }
        let deeper = String(repeating: "[", count: 100_000)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: deeper) }
    }

    @Test func theLastOfARepeatedKeyWinsAndOffsetsNameTheFault() throws {
        #expect(try JSONValue(parsing: #"{"a":1,"a":2}"#) == .object(["a": .int(2)]))
        #expect(throws: JSONValue.ParseError(offset: 6, reason: "',' or ']' was expected")) { try JSONValue(parsing: "[1, 2 3]") }
    }
}
