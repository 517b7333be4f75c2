import Foundation
import Testing
import MessageCache
@testable import ChatctlCLI
@testable import Presentation

/// `chatctl export`'s writers: each format escapes what other users wrote, so that no
/// message can change the document's structure, and writes one message at a time.
@Suite struct ExportWriterTests {
    /// 2026-11-30 08:01:00 UTC.
    static let morning = 1_796_025_660
    static let header = ExportHeader(title: "ops <team>", dialogID: "d1", dialogType: "group", exportedBy: "alice",
                                     exportedAt: morning + 3600, attachmentsSaved: false)

    static func message(_ text: String, from sender: Int = 2, id: String = "m1", at date: Int = morning,
                        raw: String? = nil, attachmentsJSON: String = "", readIDs: [Int] = []) -> CachedMessage {
        CachedMessage(id: id, dialogID: "d1", senderID: sender, dateSent: date, text: text,
                      rawJSON: raw ?? #"{"_id":"\#(id)","chat_dialog_id":"d1","message":"x","sender_id":\#(sender),"date_sent":\#(date)}"#,
                      deliveredIDs: readIDs, readIDs: readIDs, attachmentsJSON: attachmentsJSON)
    }

    static let names = [1: "alice", 2: "bob *the* builder"]

    // MARK: Markdown

    @Test(arguments: [
        ("# heading", "\\# heading"), ("- item", "\\- item"), ("+ plus", "\\+ plus"), ("1. one", "1\\. one"), ("12) x", "12\\) x"),
        ("> quote", "\\> quote"), ("```code", "\\`\\`\\`code"), ("~~~", "\\~\\~\\~"), ("---", "\\---"), ("===  ", "\\==="),
        ("<script>alert(1)</script>", "\\<script\\>alert(1)\\</script\\>"),
        ("**bold** [link](http://x) ![i](y)", "\\*\\*bold\\*\\* \\[link\\](http://x) !\\[i\\](y)"),
        ("| a | b |", "\\| a \\| b \\|"), ("$x$ ~~s~~ a_b & c &amp;", "\\$x\\$ \\~\\~s\\~\\~ a\\_b \\& c \\&amp;"),
        ("    indented code", "&nbsp;&nbsp;&nbsp;&nbsp;indented code"), ("\tx", "&nbsp;&nbsp;&nbsp;&nbsp;x"), ("", "&nbsp;"),
        ("\u{1B}[31mred\u{1B}[0m and \u{1B}]0;title\u{07}", "red and"), ("back\\slash", "back\\\\slash"),
        ("a 1. b", "a 1. b"), ("plain words, a. b: c!", "plain words, a. b: c!"),
    ])
    func markdownLinesCannotStartStructure(_ text: String, _ expected: String) {
        #expect(MarkdownText.lines(text) == [expected])
    }

    @Test func markdownKeepsEveryLineOfAMessageInOneParagraph() {
        var writer = MarkdownExportWriter(zone: .utc)
        let begun = writer.begin(Self.header)
        #expect(begun == "# ops \\<team\\>\n\nA group dialog (d1), exported by **alice** on 2026-11-30 09:01 UTC.\n\n")
        let text = "first\n\n# not a heading\n    not code\n---"
        let shown = writer.message(ExportedMessage(Self.message(text), me: 1, names: Self.names, attachments: []))
        #expect(shown == """
            ## Mon 2026-11-30

            **bob \\*the\\* builder** · 08:01\\
            first\\
            &nbsp;\\
            \\# not a heading\\
            &nbsp;&nbsp;&nbsp;&nbsp;not code\\
            \\---


            """)
        // The same day: no second heading; your own message ends with its state.
        let mine = writer.message(ExportedMessage(Self.message("ok", from: 1, id: "m2", at: Self.morning + 60, readIDs: [1, 2]),
                                                  me: 1, names: Self.names, attachments: []))
        #expect(mine == "**alice** · 08:02 · ✓✓ read\\\nok\n\n")
        #expect(writer.end(count: 2) == "---\n\n2 messages.\n")
    }

    @Test func markdownQuotesARepliesOriginalAndListsAttachments() {
        let original = #"[{\"_id\":\"m0\",\"message\":\"> the plan\\nstep 2\",\"sender_id\":2,\"date_sent\":1796025600}]"#
        let raw = #"{"_id":"m3","message":"[Replied_Message]","sender_id":1,"qb_message_action":"reply","origin_sender_name":"bob","qb_original_messages":"\#(original)"}"#
        let attachments = #"[{"type":"image","id":"u1","name":"cat [1].jpg","size":2048},{"type":"file","id":"u2","name":"notes.txt","size":12}]"#
        let message = Self.message("yes", from: 1, id: "m3", raw: raw, attachmentsJSON: attachments)
        let files = message.attachments
        let exported = ExportedMessage(message, me: 1, names: Self.names, attachments: [
            ExportedAttachment(files[0], savedPath: "files/cat [1].jpg"),
            ExportedAttachment(files[1], note: "not saved (export with --attachments DIR to save it)"),
        ])
        #expect(exported.quote == ExportedMessage.Quote(action: .reply, senderName: "bob", text: "> the plan\nstep 2", more: 0))
        var writer = MarkdownExportWriter(zone: .utc)
        let shown = writer.message(exported)
        #expect(shown.hasSuffix("""
            **alice** · 08:01 · ✓ sent

            > ↪ in reply to **bob**:\\
            > \\> the plan\\
            > step 2

            yes

            - ![cat \\[1\\].jpg](files/cat%20%5B1%5D.jpg) (image, 2.0 KB)
            - notes.txt (file, 12 B): not saved (export with --attachments DIR to save it)


            """), "\(shown)")
    }

    // MARK: HTML

    @Test func htmlEscapesEverythingOthersWroteAndAllowsNoScript() {
        var writer = HTMLExportWriter(zone: .utc)
        let head = writer.begin(ExportHeader(title: "<b>\"ops\"</b>", dialogID: "d1", dialogType: "group", exportedBy: "alice & co",
                                             exportedAt: Self.morning))
        #expect(head.contains("<title>&lt;b&gt;&quot;ops&quot;&lt;/b&gt;</title>"))
        #expect(head.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">"))
        #expect(head.contains("exported by alice &amp; co on 2026-11-30 08:01 UTC"))
        let hostile = "<img src=x onerror=alert(1)>\n\u{1B}[2J'quoted' \u{202E}reversed & more"
        let names = [2: "<script>alert('name')</script>"]
        let shown = writer.message(ExportedMessage(Self.message(hostile), me: 1, names: names, attachments: []))
        #expect(shown == """
            <h2 class="day">Mon 2026-11-30</h2>
            <article class="message" id="m-m1">
            <p class="head"><span class="who">&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;</span><time class="when" datetime="2026-11-30T08:01:00Z">08:01</time></p>
            <p class="text">&lt;img src=x onerror=alert(1)&gt;
            &#39;quoted&#39; reversed &amp; more</p>
            </article>

            """)
        #expect(writer.end(count: 1) == "</main>\n<footer>1 message.</footer>\n</body>\n</html>\n")
    }

    @Test func htmlQuotesAForwardsOriginalWithoutTheAppsPlaceholder() {
        let original = #"[{\"_id\":\"m0\",\"message\":\"<the> notes\",\"sender_id\":2,\"date_sent\":1796025600000},{\"_id\":\"m9\",\"message\":\"more\"}]"#
        let raw = #"{"_id":"m4","message":"[Forwarded_Message]","sender_id":2,"qb_message_action":"forward","qb_original_messages":"\#(original)"}"#
        var writer = HTMLExportWriter(zone: .utc)
        let shown = writer.message(ExportedMessage(Self.message("[Forwarded_Message]", id: "m4", raw: raw), me: 1, names: Self.names,
                                                   attachments: []))
        #expect(shown.contains("<blockquote class=\"forward\"><p class=\"quoted-head\">↪ forwarded from <span class=\"who\">bob *the* builder</span></p><p>&lt;the&gt; notes</p><p>and 1 more</p></blockquote>\n</article>"), "\(shown)")
        #expect(!shown.contains("Forwarded_Message"))
    }

    @Test func htmlInlinesImagesLinksSavedFilesAndSaysWhyOthersAreMissing() {
        let attachments = #"[{"type":"image","id":"u1","name":"a\"b.png","size":70,"content-type":"image/png"},{"type":"file","id":"u2","name":"x y.pdf"},{"type":"file","id":"u3","name":"z.zip"}]"#
        let message = Self.message("[attachment]", from: 1, attachmentsJSON: attachments, readIDs: [1, 2])
        let files = message.attachments
        let exported = ExportedMessage(message, me: 1, names: Self.names, attachments: [
            ExportedAttachment(files[0], savedPath: "../files/a\"b.png", inline: .init(mediaType: "image/png", base64: "iVBORw0KGgo=")),
            ExportedAttachment(files[1], savedPath: "files/x y.pdf"),
            ExportedAttachment(files[2], note: "could not be downloaded"),
        ])
        #expect(exported.text.isEmpty, "the apps' [attachment] stands for the files shown")
        var writer = HTMLExportWriter(zone: .utc)
        let shown = writer.message(exported)
        #expect(shown.contains("<span class=\"state read\">✓✓ read</span>"))
        #expect(!shown.contains("class=\"text\""))
        #expect(shown.contains("<figure><img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"a&quot;b.png\"><figcaption><a href=\"../files/a%22b.png\">a&quot;b.png</a> (image, 70 B)</figcaption></figure>\n"), "\(shown)")
        #expect(shown.contains("<p class=\"file\"><a href=\"files/x%20y.pdf\">x y.pdf</a> (file)</p>\n"))
        #expect(shown.contains("<p class=\"file missing\">z.zip (file): could not be downloaded</p>\n"))
    }

    @Test(arguments: [
        ("image/png", "image/png"), ("IMAGE/JPEG; charset=x", "image/jpeg"), ("image/svg+xml", "image/svg+xml"),
        ("text/html", nil), ("image/", nil), ("image/png\"onload=x", nil), ("image/a/b", nil), ("image/p ng", nil),
    ] as [(String, String?)])
    func onlyATokenLikeImageTypeGoesInADataURI(_ type: String, _ expected: String?) {
        let message = Self.message("", attachmentsJSON: #"[{"type":"image","id":"u","content-type":"\#(type.replacingOccurrences(of: "\"", with: "\\\""))"}]"#)
        #expect(ExportedAttachment.imageMediaType(message.attachments[0]) == expected)
    }

    // MARK: JSON Lines

    @Test func jsonLinesAreHistoryJSONObjectsOneALine() throws {
        var writer = JSONLinesExportWriter(me: 1)
        #expect(writer.begin(Self.header) == "")
        let raw = "{\"_id\":\"m1\",\n\"message\":\"two\\nlines\",\"sender_id\":2}"
        let line = writer.message(ExportedMessage(Self.message("two\nlines", raw: raw), me: 1, names: [:], attachments: []))
        #expect(line.filter { $0 == "\n" }.count == 1 && line.hasSuffix("\n"), "one line, whatever the stored text")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "two\nlines")
        let mine = Self.message("hi", from: 1, id: "m2", readIDs: [1, 2])
        let expected = JSONOutput.message(mine, me: 1) + "\n"
        #expect(writer.message(ExportedMessage(mine, me: 1, names: [:], attachments: [])) == expected, "history --json's object")
        #expect(writer.end(count: 2) == "")
    }

    @Test func jsonLinesSayWhereAttachmentsWereSavedOnlyWhenTheyWere() throws {
        let message = Self.message("", attachmentsJSON: #"[{"type":"image","id":"u1","name":"a.png"},{"type":"file","id":"u2"}]"#)
        let files = message.attachments
        let exported = ExportedMessage(message, me: 1, names: [:], attachments: [
            ExportedAttachment(files[0], savedPath: "files/a.png"), ExportedAttachment(files[1], note: "could not be downloaded"),
        ])
        var saving = JSONLinesExportWriter(me: 1)
        var header = Self.header
        header.attachmentsSaved = true
        _ = saving.begin(header)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(saving.message(exported).utf8)) as? [String: Any])
        #expect((object["downloaded"] as? [Any])?.count == 2)
        #expect((object["downloaded"] as? [Any])?.first as? String == "files/a.png")
        #expect((object["downloaded"] as? [Any])?.last is NSNull)
        var plain = JSONLinesExportWriter(me: 1)
        _ = plain.begin(Self.header)
        #expect(!plain.message(exported).contains("downloaded"))
    }
}
