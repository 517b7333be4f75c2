#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import QuickBloxAPI

/// `JSONValue.compactText` replaced `JSONEncoder` for the cache's rows and `--json`:
/// it must write what the encoder wrote, byte for byte, since `listen --json` prints a
/// cached message's text as it is.
@Suite struct JSONValueTextTests {
    static func encoded(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let values: [JSONValue] = [
        .null, .bool(true), .int(0), .int(-42), .int(Int.max), .int(Int.min),
        .double(1.5), .double(-0.25), .double(2), .double(-0.0), .double(1e20), .double(1e-5), .double(1796061316.123),
        .double(0.1), .double(123456789012345678), .double(5e-324), .double(1.7976931348623157e308),
        .string(""), .string("a/b</script> \"q\" \\ \u{8}\u{C}\n\r\t \u{0}\u{1}\u{B}\u{1B}\u{1F} \u{7F}\u{85}\u{2028} é 中 😀 👩‍👩‍👧‍👦"),
        .array([]), .object([:]),
        // A message as the cache keeps it, custom keys of every allowed shape among QuickBlox's own.
        .object([
            "_id": .string("6b0db884edb3b3d9cddf1330"), "chat_dialog_id": .string("6b0db884c4ca891d2141e1c9"),
            "message": .string("line one"), "sender_id": .int(7), "recipient_id": .int(8), "date_sent": .int(1796061316),
            "delivered_ids": .array([.int(7)]), "read_ids": .array([.int(7)]), "markable": .int(1),
            "a10": .string("x"), "a2": .string("y"), "A_b": .string("z"), "-x": .string("-"), ".y": .string("."), "B": .null,
            "attachments": .array([.object(["id": .string("uid"), "size": .int(12), "type": .string("image")])]),
        ]),
        .object(["nested": .object(["z": .array([.object(["b": .double(2.5), "a": .bool(false)])]), "é": .int(1), "e": .int(2)])]),
    ]

    @Test(arguments: values)
    func writesWhatTheEncoderWrote(_ value: JSONValue) throws {
        #expect(value.compactText == (try Self.encoded(value)))
    }

    /// `compactObjectText` (members listed, as `listen` builds a heard message) writes
    /// what the object writes, whether the members come in key order or not.
    @Test(arguments: values)
    func membersWriteWhatTheirObjectWrites(_ value: JSONValue) {
        guard case .object(let object) = value else { return }
        let members = object.map { (key: $0.key, value: $0.value) }
        let inOrder = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        #expect(JSONValue.compactObjectText(inOrder) == value.compactText)
        #expect(JSONValue.compactObjectText(Array(inOrder.reversed())) == value.compactText)
        #expect(JSONValue.compactObjectText(members) == value.compactText)
    }
}
