import ChatIdentifiers
import Foundation
import Testing

@Suite struct DialogIDTests {
    @Test(arguments: ["5f1e0c3a9b8d7e6f5a4b3c2d", "000000000000000000000000", "abcdefabcdefabcdefabcdef"])
    func anObjectIDIsReadAsADialogID(_ text: String) {
        #expect(DialogID(objectID: text)?.rawValue == text)
        #expect(DialogID.isObjectID(text))
    }

    @Test(arguments: ["", "ops", "5f1e0c3a9b8d7e6f5a4b3c2", "5f1e0c3a9b8d7e6f5a4b3c2d0", "5F1E0C3A9B8D7E6F5A4B3C2D",
                      "5f1e0c3a9b8d7e6f5a4b3c2g", "@5f1e0c3a9b8d7e6f5a4b3c2", "٥f1e0c3a9b8d7e6f5a4b3c2d"])
    func anythingElseIsNotAnObjectID(_ text: String) {
        #expect(DialogID(objectID: text) == nil)
        #expect(!DialogID.isObjectID(text))
    }

    @Test func anIDAsReceivedIsKeptAsItCame() {
        // The server decides what an id is: a short one from another server is carried unchanged.
        let id = DialogID("dlg-1")
        #expect(id.rawValue == "dlg-1")
        #expect(id.description == "dlg-1")
        #expect("\(id)" == "dlg-1")
        #expect(id == DialogID(rawValue: "dlg-1"))
        #expect(id != DialogID("dlg-2"))
    }

    @Test func idsOrderAsTheirText() {
        let ids: [DialogID] = ["5f1e0c3a9b8d7e6f5a4b3c2e", "5f1e0c3a9b8d7e6f5a4b3c2d", "0a"]
        #expect(ids.sorted().map(\.rawValue) == ["0a", "5f1e0c3a9b8d7e6f5a4b3c2d", "5f1e0c3a9b8d7e6f5a4b3c2e"])
        #expect(Set(ids + ids).count == 3)
    }

    @Test func jsonHoldsAnIDAsAPlainString() throws {
        let id = DialogID("5f1e0c3a9b8d7e6f5a4b3c2d")
        let data = try JSONEncoder().encode(["dialog_id": id])
        #expect(String(decoding: data, as: UTF8.self) == #"{"dialog_id":"5f1e0c3a9b8d7e6f5a4b3c2d"}"#)
        #expect(try JSONDecoder().decode([String: DialogID].self, from: data) == ["dialog_id": id])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([DialogID].self, from: Data("[42]".utf8)) }
    }
}
