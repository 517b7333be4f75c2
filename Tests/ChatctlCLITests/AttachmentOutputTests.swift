import Foundation
import Testing
import MessageCache
import Messaging
@testable import ChatctlCLI
@testable import Presentation

/// How attachments show (docs/protocol.md §8): `[image cat.jpg 1.2 MB]` in transcripts,
/// listen lines and search hits, and the normalised `attachments` array in `--json`.
@Suite struct AttachmentOutputTests {
    static let cat = #"[{"content-type":"image/jpeg","id":"u1","name":"cat.jpg","size":1258291,"type":"image"}]"#

    static func message(sender: Int = 2, text: String, attachments: String, raw: String? = nil) -> CachedMessage {
        CachedMessage(id: "6b0db884edb3b3d9cddf1330", dialogID: "d", senderID: sender, dateSent: 1_764_460_800, text: text,
                      rawJSON: raw ?? #"{"_id":"6b0db884edb3b3d9cddf1330","attachments":\#(attachments),"message":"\#(text)","sender_id":\#(sender)}"#,
                      attachmentsJSON: attachments)
    }

    @Test(arguments: [
        (0, "0 B"), (512, "512 B"), (1023, "1023 B"), (1024, "1.0 KB"), (9_700, "9.5 KB"), (20_480, "20 KB"),
        (1_258_291, "1.2 MB"), (1_048_000, "1.0 MB"), (356_515_840, "340 MB"), (5_368_709_120, "5.0 GB"),
    ])
    func sizesReadAsPeopleReadThem(bytes: Int, text: String) {
        #expect(AttachmentLabel.byteCount(bytes) == text)
    }

    @Test func anAttachmentOnlyMessageShowsItsAttachmentsInsteadOfThePlaceholder() {
        #expect(AttachmentLabel.body(of: Self.message(text: "[attachment]", attachments: Self.cat)) == "[image cat.jpg 1.2 MB]")
        #expect(AttachmentLabel.body(of: Self.message(text: "", attachments: Self.cat)) == "[image cat.jpg 1.2 MB]")
        #expect(AttachmentLabel.body(of: Self.message(text: "look", attachments: Self.cat)) == "look [image cat.jpg 1.2 MB]")
        #expect(AttachmentLabel.body(of: Self.message(text: "[attachment]", attachments: "")) == "[attachment]",
                "without attachments it is just text")
    }

    @Test func whatIsUnknownIsLeftOutAndOthersWordsAreInert() {
        let odd = #"[{"id":"u2"},{"type":"file","name":"  notes\u001b[31m  v2.txt "},{"type":"video","size":"lots"},{"type":"image\n\u202Eevil","size":"2048"}]"#
        #expect(AttachmentLabel.body(of: Self.message(text: "", attachments: odd))
                == "[attachment] [file notes v2.txt] [video] [image evil 2.0 KB]")
    }

    @Test func transcriptsListenLinesAndSearchHitsShowThem() {
        let t = Transcript(me: 1, names: [2: "Bob"], width: nil, color: false)
        let line = t.line(Self.message(text: "[attachment]", attachments: Self.cat))
        #expect(line.hasSuffix("  Bob: [image cat.jpg 1.2 MB]\n"))
        let mine = t.line(Self.message(sender: 1, text: "the cat", attachments: Self.cat))
        #expect(mine.hasSuffix(" » you: the cat [image cat.jpg 1.2 MB] ✓\n"))
        #expect(ListenOutput.line(Self.message(text: "two\nlines", attachments: Self.cat), title: "ops", sender: "Bob", outgoing: false,
                                  zone: .utc) == "00:00 [ops] Bob: two\n    lines [image cat.jpg 1.2 MB]\n")
        #expect(AttachmentLabel.body(of: Self.message(text: "the cat", attachments: Self.cat), text: "the [cat]")
                == "the [cat] [image cat.jpg 1.2 MB]")
    }

    /// `--json`: the array form whatever the sender sent, every key kept, the normalised keys added.
    @Test func jsonGivesTheNormalisedArray() throws {
        let raw = #"{"_id":"m","attachments":{"0":{"type":"image","id":12345,"name":"cat.jpg","size":"1258291","content-type":"image/jpeg","width":"800"}},"message":"[attachment]","sender_id":2}"#
        let stored = #"[{"content-type":"image/jpeg","id":12345,"name":"cat.jpg","size":"1258291","type":"image","width":"800"}]"#
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(JSONOutput.message(
            Self.message(text: "[attachment]", attachments: stored, raw: raw), me: 1).utf8)) as? [String: Any])
        let attachments = try #require(shown["attachments"] as? [[String: Any]])
        #expect(attachments.count == 1)
        let a = attachments[0]
        #expect(a["type"] as? String == "image" && a["id"] as? String == "12345" && a["name"] as? String == "cat.jpg")
        #expect(a["size"] as? Int == 1_258_291 && a["content_type"] as? String == "image/jpeg")
        #expect(a["content-type"] as? String == "image/jpeg" && a["width"] as? String == "800", "the sender's keys stay")
        #expect(a["url"] == nil, "unknown: not made up")
        #expect(shown["message"] as? String == "[attachment]" && shown["status"] == nil)

        let plain = Self.message(text: "hi", attachments: "", raw: #"{"_id":"m","attachments":[],"message":"hi","sender_id":2}"#)
        #expect(JSONOutput.message(plain, me: 1) == plain.rawJSON, "no attachments: the server's object as it was")
    }
}
