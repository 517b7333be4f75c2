#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import QuickBloxAPI

@Suite struct JSONValueTests {
    @Test func decodesIntBeforeDoubleAndBoolSeparately() throws {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"id":9007199254740993,"ratio":1.5,"ok":true,"n":null,"s":"x","a":[1,"2"]}"#.utf8))
        #expect(json["id"] == .int(9007199254740993))
        #expect(json["ratio"] == .double(1.5))
        #expect(json["ok"] == .bool(true))
        #expect(json["n"] == .null)
        #expect(json["s"] == .string("x"))
        #expect(json["a"] == .array([.int(1), .string("2")]))
        #expect(json["a"]?.arrayValue?[1].intValue == 2)
    }

    @Test func encodesWithSortedKeys() throws {
        let value: JSONValue = ["b": 1, "a": ["z": true, "y": nil], "c": "s"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"a":{"y":null,"z":true},"b":1,"c":"s"}"#)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == value)
    }
}
