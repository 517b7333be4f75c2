import Foundation
import Diagnostics
import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport
import Transfers

/// Files through the sandbox's content API: uploaded with the library's
/// uploader (what `send --attach` will use), downloaded with the real `chatctl
/// download`: the same bytes, by message and by uid; resumed after an interruption;
/// refused for who may not read them.
@Suite(.serialized) struct TransfersEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess(arguments: ["--max-upload", "8M"]) }

    /// A JPEG's start, then bytes that vary.
    static func photo(_ count: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            + (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
    }

    /// Uploads `bytes` as `user`, named `name`; returns the blob and its attachment.
    func upload(_ bytes: [UInt8], named name: String, as user: ChatUser) throws -> (QBBlob, QBAttachment) {
        let directory = try TemporaryDirectory()
        let path = directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let source = try UploadSource.file(at: path, sniffer: ContentSniffer(), spoolDirectory: directory.path)
        let blob = try BlobUploader(api: client(for: user)).upload(source)
        return (blob, BlobUploader.attachment(for: blob, source: source))
    }

    func client(for user: ChatUser) throws -> QuickBloxClient {
        let client = QuickBloxClient(apiEndpoint: sandbox.apiEndpoint,
                                     credentials: AppCredentials(applicationId: sandbox.applicationId, authKey: sandbox.authKey, authSecret: sandbox.authSecret),
                                     transport: try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 5)))
        client.token = try user.cli.savedToken()
        return client
    }

    /// alice sends bob a message carrying `attachment` (form fields, as form senders do).
    func send(_ attachment: QBAttachment, from alice: ChatUser, to bob: ChatUser) throws -> String {
        let token = try sandbox.createSession(login: alice.login, password: ChatUser.password)
        let dialog = try sandbox.createDialog(token: token, type: 3, occupantIds: [bob.id])
        let message = try sandbox.sendMessage(token: token, dialogId: dialog["_id"] as? String ?? "", text: "[attachment]", extra: [
            ("attachments[0][type]", attachment.type ?? ""), ("attachments[0][id]", attachment.id ?? ""),
            ("attachments[0][name]", attachment.name ?? ""), ("attachments[0][size]", String(attachment.size ?? 0)),
            ("attachments[0][content-type]", attachment.contentType ?? ""),
        ])
        return message["_id"] as? String ?? ""
    }

    func chatctl(_ user: ChatUser, _ arguments: [String], in directory: String, limit fileSize: Int? = nil) throws -> ProcessResult {
        let environment = ["CHATCTL_CONFIG": sandbox.configPath, "CHATCTL_STATE_DIR": user.cli.stateDir.path + "/state"]
        if let fileSize {
            // A file-size limit stands in for a disk that fills up mid-download.
            return try runProcess("/usr/bin/prlimit", ["--fsize=\(fileSize)", productPath("chatctl")] + arguments,
                                  environment: environment, directory: directory, timeout: 120)
        }
        return try runProcess(productPath("chatctl"), arguments, environment: environment, directory: directory, timeout: 120)
    }

    static func contents(_ path: String) -> [UInt8]? { (try? Data(contentsOf: URL(fileURLWithPath: path))).map(Array.init) }

    @Test func aFileSentInAMessageComesBackTheSameByMessageAndByUid() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let bytes = Self.photo(3_000_000)
        let (blob, attachment) = try upload(bytes, named: "cat photo.jpg", as: alice)
        #expect(attachment.type == "image" && attachment.contentType == "image/jpeg" && attachment.size == bytes.count)
        let messageID = try send(attachment, from: alice, to: bob)

        let here = try TemporaryDirectory()
        // Not in bob's cache yet: the message comes from its dialog over REST.
        let byMessage = try chatctl(bob, ["download", messageID, "--dialog", "@" + alice.login], in: here.path)
        #expect(byMessage.status == 0, "stderr: \(byMessage.stderr)")
        #expect(byMessage.stdout == "cat photo.jpg\n")
        #expect(byMessage.stderr.isEmpty, "no progress bar without a terminal")
        #expect(Self.contents(here.file("cat photo.jpg")) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: here.path) == ["cat photo.jpg"])

        // Again: the file is there, so nothing happens without --force.
        let again = try chatctl(bob, ["download", messageID, "--dialog", "@" + alice.login], in: here.path)
        #expect(again.status == 2)
        #expect(again.stderr == "chatctl: cat photo.jpg exists (give --force to replace it)\n")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: here.file("cat photo.jpg")))
        let forced = try chatctl(bob, ["download", messageID, "--dialog", "@" + alice.login, "--force", "-o", here.path + "/"], in: "/")
        #expect(forced.status == 0, "stderr: \(forced.stderr)")
        #expect(forced.stdout == here.path + "/cat photo.jpg\n")
        #expect(Self.contents(here.file("cat photo.jpg")) == bytes)

        // Cached by history, the message needs no --dialog; by uid, to a file of our choosing.
        #expect(try bob.run(["history", "@" + alice.login]).status == 0)
        let cached = try chatctl(bob, ["download", messageID, "-o", "copy.jpg"], in: here.path)
        #expect(cached.status == 0, "stderr: \(cached.stderr)")
        #expect(Self.contents(here.file("copy.jpg")) == bytes)
        let byUID = try chatctl(bob, ["download", blob.uid], in: here.path)
        #expect(byUID.status == 0, "stderr: \(byUID.stderr)")
        #expect(byUID.stdout == blob.uid + "\n")
        #expect(Self.contents(here.file(blob.uid)) == bytes)
    }

    @Test func standardOutputTakesTheBytes() throws {
        let alice = try ChatUser("alice", sandbox: sandbox)
        let text = (1...2000).map { "line \($0)\n" }.joined()
        let (blob, attachment) = try upload(Array(text.utf8), named: "notes.txt", as: alice)
        #expect(attachment.type == "file" && attachment.contentType == "text/plain")
        let here = try TemporaryDirectory()
        let result = try chatctl(alice, ["download", blob.uid, "-o", "-"], in: here.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: here.path) == [])
    }

    @Test func anInterruptedDownloadKeepsItsPartAndResumesFromIt() throws {
        let alice = try ChatUser("alice", sandbox: sandbox)
        let bytes = Self.photo(5_000_000)
        let (blob, _) = try upload(bytes, named: "big.jpg", as: alice)
        let here = try TemporaryDirectory()
        let path = here.file("big.jpg")

        let cut = try chatctl(alice, ["download", blob.uid, "-o", "big.jpg"], in: here.path, limit: 2_000_000)
        #expect(cut.status == 1)
        #expect(cut.stderr == "chatctl: download \(blob.uid): cannot write big.jpg.part: File too large (2000000 bytes are kept in big.jpg.part; the same command resumes from there)\n")
        #expect(Self.contents(path + ".part") == Array(bytes.prefix(2_000_000)))
        #expect(!FileManager.default.fileExists(atPath: path))

        let resumed = try chatctl(alice, ["download", blob.uid, "-o", "big.jpg", "--verbose"], in: here.path)
        #expect(resumed.status == 0, "stderr: \(resumed.stderr)")
        #expect(resumed.stderr.contains("chatctl: > (resuming after 2000000 bytes, checking the 65536 before)"))
        #expect(resumed.stderr.contains("chatctl: < 206 in "))
        #expect(!resumed.stderr.contains(try alice.cli.savedToken()), "the token never shows")
        #expect(Self.contents(path) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))
    }

    @Test func onATerminalAProgressBarIsDrawnAndClearedAndQuietDrawsNone() throws {
        let alice = try ChatUser("alice", sandbox: sandbox)
        let (blob, _) = try upload(Self.photo(2_000_000), named: "shown.jpg", as: alice)
        let here = try TemporaryDirectory()
        let environment = ["CHATCTL_CONFIG": sandbox.configPath, "CHATCTL_STATE_DIR": alice.cli.stateDir.path + "/state"]
        let terminal = try PseudoTerminal(productPath("chatctl"), ["download", blob.uid, "-o", here.file("shown.jpg")], environment: environment)
        let status = try #require(terminal.waitForExit(timeout: 60), "download did not end: \(terminal.output.text)")
        #expect(status == 0, "\(terminal.output.text)")
        let text = terminal.output.text
        #expect(text.hasPrefix("\r\(blob.uid) "), "the bar starts the line: \(text.debugDescription)")
        #expect(text.contains(" / 1.9 MB"))
        #expect(text.hasSuffix("\r\u{1B}[K\(here.file("shown.jpg"))\r\n"), "cleared before the path: \(text.debugDescription)")

        let quiet = try PseudoTerminal(productPath("chatctl"), ["download", blob.uid, "-o", here.file("quiet.jpg"), "--quiet"], environment: environment)
        #expect(try #require(quiet.waitForExit(timeout: 60)) == 0)
        #expect(quiet.output.text == here.file("quiet.jpg") + "\r\n")
    }

    @Test func whoMayNotReadItAndWhatDoesNotExistAreRefusedInOneLine() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), carol = try ChatUser("carol", sandbox: sandbox)
        let (blob, _) = try upload(Self.photo(1000), named: "private.jpg", as: alice)
        let here = try TemporaryDirectory()
        let refused = try chatctl(carol, ["download", blob.uid], in: here.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("chatctl: download \(blob.uid): not allowed to read it ("))
        #expect(refused.stderr.hasSuffix("(only its owner and the occupants of a dialog it was sent to may)\n"))
        let unknown = try chatctl(carol, ["download", "00000000000000000000000000000000ff"], in: here.path)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("chatctl: download 00000000000000000000000000000000ff: there is no file with uid 00000000000000000000000000000000ff"))
        let noMessage = try chatctl(carol, ["download", "6b0db887c4ca891d2141e1cb"], in: here.path)
        #expect(noMessage.status == 2)
        #expect(noMessage.stderr == "chatctl: no message 6b0db887c4ca891d2141e1cb in the cache, and no file with that uid (give the message's dialog with --dialog DIALOG)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: here.path) == [])
    }

    @Test func aFileOverTheServersLimitIsBadInputAndNothingIsCompleted() throws {
        let alice = try ChatUser("alice", sandbox: sandbox)
        let error = try #require(throws: Failure.self) { try upload(Self.photo(9_000_000), named: "huge.jpg", as: alice) }
        #expect(error.kind == .invalidInput)
        // The sandbox's policy names its limit: refused before any byte goes.
        #expect(error.message.hasSuffix("the server takes no file this large (9000020 bytes; its limit is 8388608 bytes)"))
    }
}
