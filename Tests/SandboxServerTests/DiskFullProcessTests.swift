// The real chatctl-sandbox under a file-size limit (what a full disk looks like to one
// process), with SIGXFSZ at its default: it must not die of it, answer 507 with nothing
// half-written, say so once on stderr, and serve again once the limit is raised (prlimit).
import Foundation
import Testing
import TestSupport

@Suite struct DiskFullProcessTests {
    /// `path arguments` under a file-size limit of `bytes`, SIGXFSZ left as the parent had it (not
    /// ignored, unlike `Confinement.fileSizeLimit`): the sandbox has to ignore it itself.
    static func limited(_ bytes: Int) -> (String, [String]) -> (path: String, arguments: [String]) {
        { path, arguments in ("/bin/sh", ["-c", "exec prlimit --fsize=\(bytes):unlimited -- \"$0\" \"$@\"", path] + arguments) }
    }

    /// `sqlite3 -readonly PATH SQL`'s output, trimmed.
    static func sqlite(_ path: String, _ sql: String) throws -> String {
        let run = try runProcess("/usr/bin/sqlite3", ["-readonly", path, sql], timeout: 60)
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aFullDiskIsAnswered507WithNothingHalfWrittenAndServiceReturnsWithTheSpace() throws {
        let limit = 2 << 20
        let blobs = try BlobSandbox(["--password-iterations", "1000", "--log-level", "warning"], launch: Self.limited(limit))
        let sandbox = blobs.sandbox
        let (_, annToken) = try blobs.user("ann-full")
        let (bob, _) = try blobs.user("bob-full")
        let dialogId = try #require(try sandbox.createDialog(token: annToken, type: 3, occupantIds: [bob])["_id"] as? String)

        // An upload bigger than any file may grow: 507 in S3's error shape, no partial file left.
        let blob = try blobs.newBlob(token: annToken, name: "big.bin", contentType: "application/octet-stream")
        let upload = try blobs.upload(blob.params, file: try blobs.makeFile("big.bin", size: limit + (1 << 20)))
        #expect(upload.status == 507 && upload.body.contains("<Code>InsufficientStorage</Code>"), "\(upload.status) \(upload.body)")
        #expect(blobs.storedFiles().isEmpty, "\(blobs.storedFiles())")

        // Messages until the database can grow no more: 507 in QuickBlox's error shape.
        var stored: [String] = []
        var refused: SandboxHTTPResponse?
        for index in 0..<200 {
            let text = "full \(index) " + String(repeating: "x", count: 60_000)
            let r = try sandbox.response(method: "POST", path: "/chat/Message.json",
                                         params: [("chat_dialog_id", dialogId), ("message", text)], token: annToken)
            guard r.status == 201 else { refused = r; break }
            stored.append(text)
        }
        let full = try #require(refused, "the limit was never reached")
        #expect(full.status == 507, "\(full.status) \(full.body)")
        #expect(((full.json as? [String: Any])?["errors"] as? [String])?.first?.contains("Insufficient storage") == true, "\(full.body)")
        #expect(!stored.isEmpty)
        // Refused again while full, and the sandbox lives on.
        let again = try sandbox.response(method: "POST", path: "/chat/Message.json",
                                         params: [("chat_dialog_id", dialogId), ("message", "refused too")], token: annToken)
        #expect(again.status == 507)
        #expect(sandbox.process.isRunning)
        #expect(try Self.sqlite(blobs.database, "PRAGMA integrity_check") == "ok")

        // One line for each kind of write that failed, not one per request.
        let lines = sandbox.stderr.split(separator: "\n").filter { $0.contains("disk full (") }
        #expect(lines.count == 2, "\(sandbox.stderr)")
        #expect(lines.contains { $0.contains("writing an upload") } && lines.contains { $0.contains("writing the database") })

        // Space returns (the limit raised on the running process): the next request succeeds.
        let raised = try runProcess("/usr/bin/prlimit", ["--pid", String(sandbox.pid), "--fsize=unlimited:unlimited"], timeout: 10)
        try #require(raised.status == 0, "\(raised.stderr)")
        _ = try sandbox.sendMessage(token: annToken, dialogId: dialogId, text: "after the space came back")
        try sandbox.waitForLog(containing: "disk space is back", timeout: 10)
        // Every message answered 201 is there, once, in order; none that was refused.
        #expect(try sandbox.messageTexts(token: annToken, dialogID: dialogId) == stored + ["after the space came back"])
        let retried = try blobs.upload(blob.params, file: try blobs.makeFile("big-again.bin", size: limit + (1 << 20)))
        #expect(retried.status == 201 || retried.status == 204, "\(retried.status) \(retried.body)")
        #expect(sandbox.stop() == 0, "\(sandbox.stderr)")
        #expect(try Self.sqlite(blobs.database, "PRAGMA integrity_check") == "ok")
    }
}
