// `chatctl-sandbox backup --db PATH OUT` against a running sandbox with a writer busy: the copy
// starts a sandbox with the same users, messages, blob files and certificate.
import Foundation
import Testing
import TestSupport

@Suite struct BackupProcessTests {
    @Test func aBackupTakenWhileASandboxWritesServesTheSameUsersMessagesFilesAndCertificate() throws {
        let arguments = ["--password-iterations", "1000", "--log-level", "warning"]
        let original = try BlobSandbox(arguments, chat: true)
        let sandbox = original.sandbox
        let (_, annToken) = try original.user("ann-backup")
        let (bob, bobToken) = try original.user("bob-backup")
        let dialogId = try #require(try sandbox.createDialog(token: annToken, type: 3, occupantIds: [bob])["_id"] as? String)
        let before = (1...5).map { "before the backup \($0)" }
        for text in before { _ = try sandbox.sendMessage(token: annToken, dialogId: dialogId, text: text) }
        let blob = try original.newBlob(token: annToken, name: "photo.bin", contentType: "application/octet-stream")
        let file = try original.makeFile("photo.bin", size: 300_000)
        #expect(try original.upload(blob.params, file: file).status == 201)
        #expect(try original.complete(blob, size: 300_000, token: annToken).status == 200)

        // A writer goes on while the backup runs.
        let writing = Flag(), stop = Flag(), stopped = Flag()
        Thread.detachNewThread {
            var index = 0
            while !stop.isSet {
                index += 1
                _ = try? sandbox.sendMessage(token: bobToken, dialogId: dialogId, text: "during the backup \(index)")
                writing.set()
            }
            stopped.set()
        }
        try #require(writing.wait(timeout: 30))
        let out = original.directory.file("copy.sqlite")
        let backup = try runProcess(productPath("chatctl-sandbox"), ["backup", "--db", original.database, out], timeout: 120)
        stop.set()
        try #require(stopped.wait(timeout: 30))
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stdout.hasPrefix("backed up ") && backup.stdout.contains("1 blob files (300000 bytes)"), "\(backup.stdout)")
        #expect(backup.stderr.isEmpty, "\(backup.stderr)")

        // Nothing is overwritten: usage error, exit 2.
        let again = try runProcess(productPath("chatctl-sandbox"), ["backup", "--db", original.database, out], timeout: 60)
        #expect(again.status == 2 && again.stderr.contains("\(out) exists"), "\(again.status) \(again.stderr)")
        let caFile = try #require(sandbox.config["caFile"] as? String)
        let certificate = try String(contentsOfFile: caFile, encoding: .utf8)
        #expect(sandbox.stop() == 0)

        // The copy, served by a second sandbox: same password, history, blob bytes and certificate.
        let copy = try BlobSandbox(arguments, directory: original.directory, database: "copy.sqlite", chat: true)
        let token = try copy.sandbox.createSession(login: "ann-backup", password: "ann-backup-secret-1")
        let texts = try copy.sandbox.messageTexts(token: token, dialogID: dialogId)
        #expect(Array(texts.prefix(before.count)) == before)
        #expect(texts.dropFirst(before.count).allSatisfy { $0.hasPrefix("during the backup ") })
        let downloaded = original.directory.file("downloaded.bin")
        #expect(try copy.get(try copy.location(blob.uid, token: token), output: downloaded).status == 200)
        #expect(try sameContents(file, downloaded))
        let copiedCA = try #require(copy.sandbox.config["caFile"] as? String)
        #expect(copiedCA == out + ".ca.pem")
        #expect(try String(contentsOfFile: copiedCA, encoding: .utf8) == certificate)
        #expect(copy.sandbox.stop() == 0)
    }

    @Test func aBackupNeedsItsDatabaseAndANewPath() throws {
        let directory = try TemporaryDirectory(prefix: "backup-usage")
        let missing = try runProcess(productPath("chatctl-sandbox"), ["backup", directory.file("out.db")], timeout: 30)
        #expect(missing.status == 2 && missing.stderr.contains("backup needs --db PATH"), "\(missing.stderr)")
        let nothing = try runProcess(productPath("chatctl-sandbox"), ["backup", "--db", directory.file("none.db"), directory.file("out.db")],
                                     timeout: 30)
        #expect(nothing.status == 1 && nothing.stderr == "chatctl-sandbox: error: backup: no database at \(directory.file("none.db"))\n",
                "\(nothing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("out.db")))
    }
}
