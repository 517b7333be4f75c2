import Testing
import SandboxJSON
import TestSupport

/// The sandbox's JSON (JSONParser, JSONNode.serialized) against the table the
/// client's JSONValue passes too.
@Suite struct JSONNodeGoldenTests {
    static func node(_ golden: GoldenVectors.JSON) -> JSONNode {
        switch golden {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let text): return .number(text)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(node))
        case .object(let members): return .object(members.map { ($0.key, node($0.value)) })
        }
    }

    /// Strings scalar by scalar: `==` on JSONNode would hide a normalising parser.
    static func same(_ a: JSONNode, _ b: JSONNode) -> Bool {
        switch (a, b) {
        case let (.string(x), .string(y)): return GoldenVectors.sameScalars(x, y)
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy(same)
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && same($0.1, $1.1) }
        default: return a == b
        }
    }

    @Test(arguments: GoldenVectors.jsonReadings)
    func reads(_ vector: GoldenVectors.JSONReading) {
        let value = try? JSONParser.parse(vector.bytes)
        switch (value, vector.value) {
        case let (value?, expected?): #expect(Self.same(value, Self.node(expected)), "read \(value.serialized.prefix(80))")
        case (nil, nil): break
        case (nil, _?): Issue.record("rejected a document the table reads")
        case let (value?, nil): Issue.record("read a malformed document as \(value.serialized.prefix(80))")
        }
    }

    /// The sandbox is the strict reader: what only Foundation tolerates is a 400 here.
    @Test(arguments: GoldenVectors.jsonToleratedOnlyByTheClient)
    func refusesWhatOnlyTheClientTolerates(_ vector: GoldenVectors.JSONReading) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(vector.bytes) }
    }

    @Test(arguments: GoldenVectors.jsonWritings)
    func writesAndReadsBack(_ vector: GoldenVectors.JSONWriting) throws {
        #expect(GoldenVectors.sameScalars(Self.node(vector.value).serialized, vector.text))
        #expect(Self.same(try JSONParser.parse(Array(vector.text.utf8)), Self.node(vector.value)))
    }
}
