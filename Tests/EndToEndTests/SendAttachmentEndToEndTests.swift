import Foundation
import Testing
import TestSupport

/// `chatctl send --attach` against the real sandbox: files and standard input
/// in one message each, over REST and chat; the receiver's history, search and
/// `download` give back the same bytes; a progress bar only on a terminal; bad input
/// leaves nothing queued; a sender killed, or a server lost, mid-upload leaves an
/// outbox entry that `outbox flush` finishes, the message arriving exactly once;
/// `listen --download` saves what arrives and hands it to `--exec`.
@Suite(.serialized) struct SendAttachmentEndToEndTests {
    static let photo = TransfersEndToEndTests.photo

    static func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
    /// Whether the file at `path` holds exactly `bytes` (a Bool: a failure does not print megabytes).
    static func holds(_ path: String, _ bytes: [UInt8]) -> Bool { TransfersEndToEndTests.contents(path) == bytes }

    /// A large JPEG written fast (a debug build makes bytes one by one slowly): a
    /// megabyte of `photo` again and again, `megabytes` times.
    static func writeLargePhoto(megabytes: Int, to path: String) throws {
        let block = Data(photo(1024 * 1024 - 20))
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for _ in 0..<megabytes { try file.write(contentsOf: block) }
        try file.close()
    }

    /// Whether two files hold the same bytes (cmp(1)).
    static func same(_ one: String, _ other: String) throws -> Bool {
        try runProcess("/usr/bin/cmp", ["-s", one, other]).status == 0
    }

    static func environment(_ user: ChatUser, configPath: String) -> [String: String] {
        ["CHATCTL_CONFIG": configPath, "CHATCTL_STATE_DIR": user.cli.stateDir.path + "/state"]
    }

    /// What the user's outbox keeps of files (`send --attach`).
    static func outboxFiles(_ user: ChatUser) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: user.cli.stateDir.path + "/state/outbox-files")) ?? []
    }

    static func outbox(_ user: ChatUser) throws -> [[String: Any]] {
        let listed = try user.run(["outbox", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stderr)")
    }

    static func attachments(_ message: [String: Any]?) -> [[String: Any]] { message?["attachments"] as? [[String: Any]] ?? [] }

    @Test func filesAndStandardInputGoWithTextAndWithoutAndComeBackTheSame() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let here = try TemporaryDirectory()
        let photo = Self.photo(400_000), notes = Array((1...300).map { "note \($0)\n" }.joined().utf8)
        try Self.write(photo, to: here.file("cat photo.jpg"))

        // A file with text, over REST (the default for one message).
        let first = try alice.run(["send", "@" + bob.login, "--attach", here.file("cat photo.jpg"), "look", "at", "this", "--json"])
        #expect(first.status == 0 && first.stderr.isEmpty, "no progress bar without a terminal: \(first.stderr)")
        let sent = try #require(jsonObject(first.stdout))
        // Standard input without text: the body is what the apps send.
        let second = try alice.run(["send", "@" + bob.login, "--attach", "-", "--name", "notes.txt"], stdin: String(decoding: notes, as: UTF8.self))
        #expect(second.status == 0 && second.stdout.isEmpty && second.stderr.isEmpty, "\(second.stderr)")
        // Two in one message, a file and standard input, over chat.
        let third = try alice.run(["send", "@" + bob.login, "--attach", here.file("cat photo.jpg"), "--attach", "-", "--name", "notes.txt",
                                   "--via", "chat", "both", "--json"], stdin: String(decoding: notes, as: UTF8.self))
        #expect(third.status == 0, "\(third.stderr)")
        let both = try #require(jsonObject(third.stdout))

        // Sent within a second, over REST and chat: history has no order among them (docs/protocol.md §6).
        let order = ["look at this", "[attachment]", "both"]
        let items = try bob.history("@" + alice.login).sorted {
            order.firstIndex(of: $0["message"] as? String ?? "") ?? 9 < order.firstIndex(of: $1["message"] as? String ?? "") ?? 9
        }
        #expect(items.map { $0["message"] as? String } == order)
        let files = items.map(Self.attachments)
        #expect(files.map { $0.map { $0["name"] as? String } } == [["cat photo.jpg"], ["notes.txt"], ["cat photo.jpg", "notes.txt"]])
        #expect(files.map { $0.map { $0["size"] as? Int } } == [[photo.count], [notes.count], [photo.count, notes.count]])
        #expect(files.map { $0.map { $0["content_type"] as? String } } == [["image/jpeg"], ["text/plain"], ["image/jpeg", "text/plain"]])
        #expect(files.map { $0.map { $0["type"] as? String } } == [["image"], ["file"], ["image", "file"]])
        // The uids the sender printed are the ones the receiver has.
        #expect(files[0].map { $0["id"] as? String } == Self.attachments(sent).map { $0["id"] as? String })
        #expect(files[2].map { $0["id"] as? String } == Self.attachments(both).map { $0["id"] as? String })
        #expect(Set(files.flatMap { $0.compactMap { $0["id"] as? String } }).count == 4, "a blob per file sent")

        let saved = try TemporaryDirectory()
        let download = try bob.run(["download", try #require(items[2]["_id"] as? String), "-o", saved.path + "/"])
        #expect(download.status == 0, "\(download.stderr)")
        #expect(Self.holds(saved.file("cat photo.jpg"), photo))
        #expect(Self.holds(saved.file("notes.txt"), notes))
        #expect(try bob.run(["search", "cat photo.jpg"]).stdout.contains("both [image cat photo.jpg 391 KB] [file notes.txt 2.5 KB]"))

        // Delivered: nothing waits, and the outbox's copies of the files are gone.
        #expect(try Self.outbox(alice).isEmpty)
        #expect(Self.outboxFiles(alice) == [])
        #expect(Self.holds(here.file("cat photo.jpg"), photo), "the user's file is left as it was")
    }

    @Test func aProgressBarOnATerminalOnlyAndNoneWhenQuiet() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let here = try TemporaryDirectory()
        try Self.write(Self.photo(3_000_000), to: here.file("shown.jpg"))
        let environment = Self.environment(alice, configPath: sandbox.configPath)
        let terminal = try PseudoTerminal(productPath("chatctl"), ["send", "@" + bob.login, "--attach", here.file("shown.jpg")],
                                          environment: environment)
        #expect(try #require(terminal.waitForExit(timeout: 60), "send did not end: \(terminal.output.text)") == 0, "\(terminal.output.text)")
        let text = terminal.output.text
        #expect(text.hasPrefix("\rshown.jpg "), "the bar starts the line: \(text.debugDescription)")
        #expect(text.contains(" / 2.9 MB"))
        #expect(text.hasSuffix("\r\u{1B}[K"), "cleared at the end: \(text.debugDescription)")

        let quiet = try PseudoTerminal(productPath("chatctl"), ["send", "@" + bob.login, "--attach", here.file("shown.jpg"), "-q", "again"],
                                       environment: environment)
        #expect(try #require(quiet.waitForExit(timeout: 60)) == 0)
        #expect(quiet.output.text == "")
        #expect(try bob.history("@" + alice.login).map { $0["message"] as? String } == ["[attachment]", "again"])
    }

    @Test func badInputExitsTwoNamingTheFileWithNothingQueued() throws {
        let sandbox = try SandboxProcess(arguments: ["--max-upload", "1M"])
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let here = try TemporaryDirectory()
        try Self.write(Self.photo(1000), to: here.file("ok.jpg"))
        try Self.write([], to: here.file("empty.jpg"))
        try Self.write(Self.photo(2_000_000), to: here.file("big.jpg"))
        let to = "@" + bob.login
        let cases: [(arguments: [String], stdin: String?, error: String)] = [
            (["--attach", here.file("ok.jpg"), "--attach", here.file("gone.jpg")], nil,
             "chatctl: cannot attach \(here.file("gone.jpg")): no such file\n"),
            (["--attach", here.path], nil,
             "chatctl: cannot attach \(here.path): it is a directory (attach the files in it one by one, or an archive of it)\n"),
            (["--attach", here.file("empty.jpg")], nil, "chatctl: cannot attach \(here.file("empty.jpg")): the file is empty\n"),
            (["--attach", "-", "--attach", here.file("ok.jpg")], "", "chatctl: cannot attach standard input: it is empty\n"),
            (["--attach", here.file("ok.jpg"), "--lines"], "a\n", "chatctl: --attach sends one message; it does not go with --lines\n"),
            (["--attach", here.file("ok.jpg"), "--name", "x.jpg"], nil,
             "chatctl: --name names the file read with --attach -; give it with --attach -\n"),
            (["--attach", "-", "--attach", "-"], "a", "chatctl: --attach - can be given once: standard input is read once\n"),
            (["--attach", "-", "--name", ""], "a", "chatctl: --name must be a file name: not empty, no control characters\n"),
            // Known only once the server has made a blob: its policy names the limit.
            (["--attach", here.file("ok.jpg"), "--attach", here.file("big.jpg"), "too big"], nil,
             "chatctl: upload \(here.file("big.jpg")): the server takes no file this large (2000020 bytes; its limit is 1048576 bytes)\n"),
        ]
        for (arguments, stdin, error) in cases {
            let result = try alice.run(["send", to] + arguments, stdin: stdin)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(error), "\(arguments)")
            // One line, and after a usage error the usage.
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 || lines[1].hasPrefix("usage: chatctl send "), "\(result.stderr)")
            #expect(try Self.outbox(alice).isEmpty, "nothing queued by \(arguments)")
            #expect(Self.outboxFiles(alice) == [], "nothing kept by \(arguments)")
        }
        #expect(try alice.history(to).isEmpty, "nothing sent")
    }

    /// A sandbox restartable in place, with a storage port of its own that stays the
    /// same, and what its storage is receiving (`.upload-…` files next to its database).
    static func restartable() throws -> (RestartableChat, blobs: String) {
        let storage = try LoopbackListener.freePort()
        let chat = try RestartableChat(extraArguments: ["--max-upload", "256M", "--storage-port", String(storage)])
        return (chat, chat.directory.file("sandbox.db.blobs"))
    }

    /// Waits until the storage is receiving a file: its partial upload is on disk
    /// (the sandbox throttled meanwhile, so that the upload cannot end unseen).
    static func waitForUploadUnderWay(in blobs: String) throws {
        try waitUntil("an upload of more than a MiB under way in \(blobs)", timeout: 30, every: 0.001) {
            ((try? FileManager.default.contentsOfDirectory(atPath: blobs)) ?? []).contains { name in
                let size = (try? FileManager.default.attributesOfItem(atPath: blobs + "/" + name)[.size] as? Int) ?? 0
                return name.hasPrefix(".upload-") && size > 1 << 20
            }
        }
    }

    @Test func aSenderKilledMidUploadLeavesAnEntryThatFlushFinishesOnce() throws {
        let (chat, blobs) = try Self.restartable()
        let (alice, bob) = (chat.alice, chat.bob)
        let here = try TemporaryDirectory()
        try Self.writeLargePhoto(megabytes: 32, to: here.file("big.jpg"))

        let throttle = ProcessThrottle(chat.sandbox.process.processIdentifier)
        let sender = try alice.cli.background(["send", "@" + bob.login, "--attach", here.file("big.jpg"), "the big one"])
        try Self.waitForUploadUnderWay(in: blobs)
        // Held still (the storage reads no more, so the upload cannot end), the sender is killed.
        throttle.holdStopped()
        sender.signal(SIGKILL)
        let killed = sender.finish(timeout: 10)
        kill(chat.sandbox.process.processIdentifier, SIGCONT)
        #expect(killed.status == SIGKILL, "killed, not finished: \(killed.stderr)")

        let listed = try alice.run(["outbox"])
        #expect(listed.stdout.contains("uploading 1 of 1"), "\(listed.stdout)")
        #expect(listed.stdout.contains("the big one [image big.jpg 32 MB]"))
        let entry = try #require(try Self.outbox(alice).first)
        let upload = try #require((entry["uploads"] as? [[String: Any]])?.first)
        #expect(upload["state"] as? String == "created" && ["link", "clone"].contains(upload["keeping"] as? String ?? ""))
        let uid = try #require(upload["id"] as? String)
        #expect(Self.outboxFiles(alice).count == 1)

        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(flush.stderr == "chatctl: delivered 1 message from the outbox\n")
        #expect(try Self.outbox(alice).isEmpty && Self.outboxFiles(alice) == [])

        let items = try bob.history("@" + alice.login)
        #expect(items.map { $0["message"] as? String } == ["the big one"], "exactly once")
        let sentFile = try #require(Self.attachments(items.first).first)
        #expect(sentFile["id"] as? String == uid, "the blob made before the kill, uploaded to again")
        #expect(sentFile["size"] as? Int == 32 * 1024 * 1024)
        let saved = try TemporaryDirectory()
        #expect(try bob.run(["download", uid, "-o", saved.file("big.jpg")]).status == 0)
        #expect(try Self.same(saved.file("big.jpg"), here.file("big.jpg")))
    }

    @Test func aServerLostMidUploadLeavesAnEntryThatFlushFinishesOnceItIsBack() throws {
        let (chat, blobs) = try Self.restartable()
        let (alice, bob) = (chat.alice, chat.bob)
        let here = try TemporaryDirectory()
        try Self.writeLargePhoto(megabytes: 32, to: here.file("big.jpg"))
        try Self.write(Array("small print\n".utf8), to: here.file("small.txt"))

        let server = chat.sandbox.process.processIdentifier
        let throttle = ProcessThrottle(server)
        let sender = try alice.cli.background(["send", "@" + bob.login, "--attach", here.file("small.txt"),
                                               "--attach", here.file("big.jpg"), "--via", "chat"])
        try Self.waitForUploadUnderWay(in: blobs)
        throttle.holdStopped()
        // The small file is up already; the big one cannot be: the server is gone.
        kill(server, SIGKILL)
        let sent = sender.finish(timeout: 60)
        #expect(sent.status == 3, "\(sent.stderr)")
        #expect(sent.stderr.hasPrefix("chatctl: 1 message was not delivered ("), "\(sent.stderr)")
        #expect(sent.stderr.hasSuffix("; 0 delivered (they are in the outbox: run 'chatctl outbox flush' later)\n"))
        let entry = try #require(try Self.outbox(alice).first)
        #expect(entry["attempts"] as? Int == 1 && entry["state"] as? String == "uploading")

        try chat.restartSandbox()
        let flush = try alice.run(["outbox", "flush"])
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(try Self.outbox(alice).isEmpty && Self.outboxFiles(alice) == [])
        let items = try bob.history("@" + alice.login)
        #expect(items.map { $0["message"] as? String } == ["[attachment]"], "exactly once")
        let files = Self.attachments(items.first)
        #expect(files.map { $0["name"] as? String } == ["small.txt", "big.jpg"])
        let saved = try TemporaryDirectory()
        #expect(try bob.run(["download", try #require(items.first?["_id"] as? String), "-o", saved.path]).status == 0)
        #expect(try Self.same(saved.file("big.jpg"), here.file("big.jpg")))
        #expect(Self.holds(saved.file("small.txt"), Array("small print\n".utf8)))
    }

    @Test func listenDownloadSavesWhatArrivesAndHandsThePathsToExec() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let here = try TemporaryDirectory(), inbox = try TemporaryDirectory(), hooks = try TemporaryDirectory()
        let photo = Self.photo(200_000)
        try Self.write(photo, to: here.file("cat.jpg"))
        try Self.write(Array("minutes\n".utf8), to: here.file("notes.txt"))
        try Self.write(Array("bob's own".utf8), to: inbox.file("cat.jpg"))
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)

        let hook = "printf '%s' \"$CHATCTL_ATTACHMENTS\" > \(hooks.path)/$CHATCTL_MESSAGE_ID"
        let listener = try bob.cli.background(["listen", "--count", "3", "--json", "--timeout", "60s", "--download", inbox.path, "--exec", hook])
        try listener.waitUntilListening()
        #expect(try alice.run(["send", "@" + bob.login, "--attach", here.file("cat.jpg"), "--attach", here.file("notes.txt"), "files"]).status == 0)
        // A file that cannot be fetched (a uid no blob has): one line on stderr, and listening goes on.
        let token = try sandbox.createSession(login: alice.login, password: ChatUser.password)
        let dialog = try #require(try sandbox.dialogIDs(token: token).first)
        _ = try sandbox.sendMessage(token: token, dialogId: dialog, text: "[attachment]", sendToChat: true, extra: [
            ("attachments[0][type]", "file"), ("attachments[0][id]", "00000000000000000000000000000000ff"), ("attachments[0][name]", "lost.bin"),
        ])
        #expect(try alice.run(["send", "@" + bob.login, "no files"]).status == 0)
        let heard = listener.finish(timeout: 60)
        #expect(heard.status == 0, "\(heard.stderr)")
        let lines = heard.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
        #expect(lines.map { $0["message"] as? String } == ["files", "[attachment]", "no files"])

        let saved = try #require(lines.first?["downloaded"] as? [String])
        #expect(saved == [inbox.file("cat-2.jpg"), inbox.file("notes.txt")], "a name taken gets a number")
        #expect(Self.holds(inbox.file("cat-2.jpg"), photo))
        #expect(Self.holds(inbox.file("notes.txt"), Array("minutes\n".utf8)))
        #expect(Self.holds(inbox.file("cat.jpg"), Array("bob's own".utf8)), "never over a file that is there")
        #expect((lines[1]["downloaded"] as? [Any])?.first is NSNull)
        #expect(heard.stderr.contains("chatctl: --download: cannot save lost.bin of message \(lines[1]["_id"] as? String ?? "?"): download 00000000000000000000000000000000ff: there is no file with uid"))
        #expect((lines[2]["downloaded"] as? [Any])?.isEmpty == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.path).sorted() == ["cat-2.jpg", "cat.jpg", "notes.txt"])

        let id = { (n: Int) in lines[n]["_id"] as? String ?? "" }
        #expect(try String(contentsOfFile: hooks.file(id(0)), encoding: .utf8) == inbox.file("cat-2.jpg") + "\n" + inbox.file("notes.txt"))
        #expect(try String(contentsOfFile: hooks.file(id(1)), encoding: .utf8) == "")
        #expect(try String(contentsOfFile: hooks.file(id(2)), encoding: .utf8) == "")

        // Without --download nothing is fetched.
        let plain = try bob.cli.background(["listen", "--count", "1", "--json", "--timeout", "60s"])
        try plain.waitUntilListening()
        #expect(try alice.run(["send", "@" + bob.login, "--attach", here.file("notes.txt")]).status == 0)
        let once = plain.finish(timeout: 60)
        #expect(jsonObject(once.stdout)?["downloaded"] == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.path).count == 3)
    }
}
