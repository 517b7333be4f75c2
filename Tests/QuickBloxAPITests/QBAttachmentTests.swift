import Foundation
import Testing
import QuickBloxAPI

/// Attachments over REST (docs/protocol.md §8): the shapes of the contract and of the
/// SDKs' own sources, the wire form chatctl sends and the normalised form of `--json`.
@Suite struct QBAttachmentTests {
    /// The contract's message, and the q-municate web app's attachment (`Attach.create`:
    /// the blob's uid as `id`, `duration`, `height`, `width` beside the fields).
    @Test func theContractsAndTheWebAppsShapes() throws {
        let json = try decodeJSON(#"""
            {"_id":"6b0db887c4ca891d2141e1cb","chat_dialog_id":"6b0db884c4ca891d2141e1c9","message":"[attachment]","sender_id":2,
             "date_sent":1796061319,"attachments":[
               {"type":"image","id":"8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b","name":"cat.jpg","size":1258291,"content-type":"image/jpeg"},
               {"type":"video","id":"0a1b","name":"demo.mp4","size":5242880,"content-type":"video/mp4","duration":12,"height":720,"width":1280}]}
            """#)
        let message = try #require(QBMessage(json: json))
        #expect(message.message == "[attachment]")
        #expect(message.attachments.map(\.type) == ["image", "video"])
        #expect(message.attachments.map(\.id) == ["8f2a4c0e1b6d4e3f9a7b5c2d1e0f3a4b", "0a1b"])
        #expect(message.attachments.map(\.size) == [1_258_291, 5_242_880])
        #expect(message.attachments.last?.raw["duration"] == 12, "what an app adds is kept")
    }

    /// What a form-encoding sender leaves (the JavaScript SDK's maintainers' answer:
    /// `{'0': {type: 'image/jpeg', id: 6296283}}`): keyed "0", an old numeric blob id, a MIME
    /// type as the type. Read as given, in key order; entries that are no objects skipped.
    @Test func theObjectKeyedFormOfFormSenders() throws {
        let json = try decodeJSON(#"{"0":{"type":"image/jpeg","id":6296283},"1":"junk","2":{"size":"2048.0","content_type":"text/plain"}}"#)
        let list = QBAttachment.list(from: json)
        #expect(list.map(\.id) == ["6296283", nil])
        #expect(list.first?.type == "image/jpeg", "the type as the sender wrote it")
        #expect(list.last?.size == 2048 && list.last?.contentType == "text/plain")
        #expect(QBAttachment.list(from: "nope").isEmpty && QBAttachment.list(from: nil).isEmpty)
    }

    @Test(arguments: [(#"-3"#, nil), (#""-3""#, nil), (#""12.5""#, nil), (#""lots""#, nil), (#"0"#, 0), (#""  42 ""#, 42)] as [(String, Int?)])
    func sizes(json: String, bytes: Int?) throws {
        #expect(QBAttachment(json: try decodeJSON(#"{"size":\#(json)}"#))?.size == bytes)
    }

    /// Sent: the typed fields over what came, `content-type` as the SDKs spell it.
    @Test func theWireForm() {
        let built = QBAttachment(type: "image", id: "u1", name: "a.png", size: 10, contentType: "image/png")
        #expect(built.json == ["type": "image", "id": "u1", "name": "a.png", "size": 10, "content-type": "image/png"])
        let received = QBAttachment(json: ["id": 7, "size": "10", "content_type": "image/png", "width": "3"])!
        #expect(received.json == ["id": "7", "size": 10, "content_type": "image/png", "content-type": "image/png", "width": "3"])
    }

    /// `--json`: every key kept, the normalised ones added; what cannot be read stays as it came.
    @Test func theNormalisedForm() {
        let received = QBAttachment(json: ["type": "file", "id": 7, "size": "10", "content-type": "text/plain", "url": "https://x/y"])!
        #expect(received.normalizedJSON == ["type": "file", "id": "7", "size": 10, "content-type": "text/plain", "content_type": "text/plain",
                                            "url": "https://x/y"])
        let odd = QBAttachment(json: ["size": "lots", "name": ["not": "text"]])!
        #expect(odd.normalizedJSON == ["size": "lots", "name": ["not": "text"]])
    }
}
