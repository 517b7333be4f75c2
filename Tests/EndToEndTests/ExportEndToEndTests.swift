import Foundation
import Testing
import TestSupport

/// `chatctl export` against the real sandbox: a dialog with text and an image
/// attachment, fetched from the server into an empty cache, written as Markdown, JSON
/// Lines and one HTML file whose image a real browser (headless Chromium) draws.
@Suite(.serialized) struct ExportEndToEndTests {
    /// A 3×2 red PNG.
    static let dot = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGP4z8AAQQxwFgBB0gX7h/C5SAAAAABJRU5ErkJggg==")!

    /// A dialog between two new users: bob's text, then alice's image with a caption.
    static func conversation(_ sandbox: SandboxProcess, in here: TemporaryDirectory) throws -> (alice: ChatUser, bob: ChatUser) {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        try dot.write(to: URL(fileURLWithPath: here.file("red dot.png")))
        let text = try bob.run(["send", "@" + alice.login, "hello <b>alice</b>\n# not a heading"])
        #expect(text.status == 0, "\(text.stderr)")
        let image = try alice.run(["send", "@" + bob.login, "--attach", here.file("red dot.png"), "look"])
        #expect(image.status == 0, "\(image.stderr)")
        return (alice, bob)
    }

    /// Alice's app replies to bob's first message the UI Kits' way (docs/protocol.md §6).
    static func reply(_ sandbox: SandboxProcess, from alice: ChatUser, to bob: ChatUser) throws {
        let original = try #require(try bob.history("@" + alice.login, offline: true).first)
        let token = try sandbox.createSession(login: alice.login, password: ChatUser.password)
        let dialog = try #require(original["chat_dialog_id"] as? String)
        let originals = #"[{"_id":"\#(original["_id"] as? String ?? "")","chat_dialog_id":"\#(dialog)","message":"hello <b>alice</b>","sender_id":\#(bob.id),"date_sent":1700117172000}]"#
        _ = try sandbox.sendMessage(token: token, dialogId: dialog, text: "hi <i>bob</i>", extra: [
            ("qb_message_action", "reply"), ("origin_sender_name", "Bob & co"), ("qb_original_messages", originals),
        ])
    }

    @Test func aDialogWithTextAndAnImageExportsToMarkdownJSONLinesAndHTML() throws {
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let here = try TemporaryDirectory()
        let (alice, bob) = try Self.conversation(sandbox, in: here)
        let dialog = "@" + alice.login

        // Markdown on stdout, from a cache that had nothing: filled from the server first.
        let markdown = try bob.run(["export", dialog])
        #expect(markdown.status == 0, "\(markdown.stderr)")
        #expect(markdown.stdout.contains("\\# not a heading"), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("hello \\<b\\>alice\\</b\\>"))
        #expect(markdown.stdout.contains("# \(alice.login)\n"), "a private dialog is titled by the other person's name")
        #expect(markdown.stdout.contains("**\(bob.login)** ·") && markdown.stdout.contains(" · ✓ sent\\\nhello"), "bob's own message has its state")
        #expect(markdown.stdout.contains("look\n\n- red dot.png (image, 73 B): not saved (export with --attachments DIR to save it)"), "\(markdown.stdout)")
        #expect(markdown.stdout.hasSuffix("2 messages.\n"))
        #expect(markdown.stderr == "chatctl: 1 attachment was not saved; give --attachments DIR to save them\n")
        try Self.reply(sandbox, from: alice, to: bob)

        // JSON Lines into a file: history --json's objects, one a line.
        let jsonl = try bob.run(["export", dialog, "--format", "jsonl", "-o", here.file("chat.jsonl")])
        #expect(jsonl.status == 0 && jsonl.stdout.isEmpty, "\(jsonl.stderr)")
        #expect(jsonl.stderr == """
            chatctl: 1 attachment was not saved; give --attachments DIR to save them
            chatctl: exported 3 messages to \(here.file("chat.jsonl"))

            """)
        let lines = try String(contentsOfFile: here.file("chat.jsonl"), encoding: .utf8).split(separator: "\n")
        let exported = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let history = try bob.history(dialog, offline: true)
        #expect(exported.map { $0["_id"] as? String } == history.map { $0["_id"] as? String })
        #expect(exported.map { Set($0.keys) } == history.map { Set($0.keys) }, "the keys of history --json")
        #expect(exported.map { $0["message"] as? String } == ["hello <b>alice</b>\n# not a heading", "look", "hi <i>bob</i>"])
        #expect(exported.last?["qb_message_action"] as? String == "reply")

        // HTML with the files saved beside it: the image inside the page, and linked.
        let html = try bob.run(["export", dialog, "--format", "html", "--attachments", here.file("files"), "-o", here.file("chat.html")])
        #expect(html.status == 0, "\(html.stderr)")
        #expect(html.stderr == "chatctl: exported 3 messages to \(here.file("chat.html")), 1 file in \(here.file("files"))\n")
        #expect(FileManager.default.contents(atPath: here.file("files/red dot.png")) == Self.dot)
        let page = try String(contentsOfFile: here.file("chat.html"), encoding: .utf8)
        #expect(page.contains("<img src=\"data:image/png;base64,\(Self.dot.base64EncodedString())\" alt=\"red dot.png\">"))
        #expect(page.contains("<a href=\"files/red%20dot.png\">red dot.png</a>"))
        #expect(page.contains("hello &lt;b&gt;alice&lt;/b&gt;\n# not a heading"))
        #expect(!page.contains("<b>alice") && !page.contains("<i>bob"))
        #expect(page.contains("<blockquote class=\"reply\"><p class=\"quoted-head\">↪ in reply to <span class=\"who\">Bob &amp; co</span></p><p>hello &lt;b&gt;alice&lt;/b&gt;</p></blockquote>\n<p class=\"text\">hi &lt;i&gt;bob&lt;/i&gt;</p>"), "\(page)")

        // A real browser draws the image from the page alone.
        #expect(try Self.imageSizes(in: here.file("chat.html"), scratch: here) == ["3x2"])
    }

    @Test func imagesOverTheLimitAreLinkedAndOfflineNothingIsFetched() throws {
        let sandbox = try SandboxProcess()
        defer { sandbox.stop() }
        let here = try TemporaryDirectory()
        let (alice, bob) = try Self.conversation(sandbox, in: here)
        let dialog = "@" + alice.login
        try FileManager.default.createDirectory(atPath: here.file("out"), withIntermediateDirectories: false)

        let linked = try bob.run(["export", dialog, "--format", "html", "--inline-limit", "64", "--attachments", here.file("files"),
                                  "-o", here.file("out/chat.html")])
        #expect(linked.status == 0, "\(linked.stderr)")
        let page = try String(contentsOfFile: here.file("out/chat.html"), encoding: .utf8)
        #expect(!page.contains("data:image"))
        #expect(page.contains("<p class=\"file\"><a href=\"../files/red%20dot.png\">red dot.png</a> (image, 73 B): over the inline limit of 64 B</p>"), "\(page)")
        #expect(try Self.imageSizes(in: here.file("out/chat.html"), scratch: here) == [])

        let tooLarge = try bob.run(["export", dialog, "--format", "html", "--inline-limit", "64"])
        #expect(tooLarge.stdout.contains("red dot.png (image, 73 B): over the inline limit of 64 B (export with --attachments DIR to save it)"))

        let offline = try bob.run(["export", dialog, "--format", "html", "--offline"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout.contains("red dot.png (image, 73 B): not fetched (exported with --offline)"))

        let empty = try bob.run(["export", dialog, "--since", "2099-01-01", "-o", here.file("none.md")])
        #expect(empty.status == 0)
        #expect(empty.stderr.hasPrefix("chatctl: no messages to export in that range\n"), "\(empty.stderr)")
        #expect(try String(contentsOfFile: here.file("none.md"), encoding: .utf8).hasSuffix("0 messages.\n"))
    }

    /// The `naturalWidth`x`naturalHeight` of each image headless Chromium loaded from the
    /// export: a page of the test's frames it, and reads them once it has loaded.
    static func imageSizes(in export: String, scratch: TemporaryDirectory) throws -> [String] {
        let frame = scratch.file("frame-\(UUID().uuidString).html")
        let script = """
            <!DOCTYPE html><iframe id="f" src="\(URL(fileURLWithPath: export).absoluteString)"></iframe><script>
            document.getElementById('f').addEventListener('load', () => {
              try {
                const images = [...document.getElementById('f').contentDocument.images];
                console.log('EXPORT images ' + images.map(i => i.complete ? i.naturalWidth + 'x' + i.naturalHeight : 'loading').join(','));
              } catch (e) { console.log('EXPORT failed ' + e.name); }
            });
            </script>
            """
        try script.write(toFile: frame, atomically: true, encoding: .utf8)
        let browser = try HeadlessChromium(url: URL(fileURLWithPath: frame).absoluteString)
        defer { browser.stop() }
        let said = try browser.waitForConsole("the export to load in Chromium", prefix: "EXPORT ", timeout: 60) { _ in true }
        guard said.hasPrefix("EXPORT images") else { throw TestSupportError("the page said: \(said)\n\(browser.log)") }
        return said.dropFirst("EXPORT images ".count).split(separator: ",").map(String.init)
    }

    /// `-o FILE` is written beside FILE first: an export ended by ^C, SIGTERM or a hang-up
    /// (the server silent, so it is surely still at work) removes that temporary file and
    /// still ends by the signal; FILE, which was never made, is not there either.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func anExportEndedByASignalLeavesNoTemporaryFile(signal: Int32) throws {
        let pair = try ProxiedPair()
        let out = try TemporaryDirectory(prefix: "export-signal")
        pair.backend.rest.mode = .blackHole
        let export = try pair.alice.cli.background(["export", "@" + pair.bob.login, "-o", out.file("bob.md")])
        let listing = { try FileManager.default.contentsOfDirectory(atPath: out.path) }
        try waitUntil("the temporary file beside bob.md", timeout: 30) { try listing().contains { $0.hasPrefix(".bob.md.") } }
        export.signal(signal)
        let ended = export.finish(timeout: 30)
        #expect(!ended.timedOut && ended.status == signal, "ended by the signal: \(ended.status) \(ended.stderr)")
        let left = try listing()
        #expect(left.isEmpty, "nothing left: \(left)")
    }
}
