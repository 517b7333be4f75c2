// The real chatctl-sandbox under a file-size limit: a chat message that cannot be stored is
// bounced with resource-constraint (wait), the stream stays up, and once the limit is raised
// the next message is stored and acknowledged, without a restart.
import Foundation
import Testing
import TestSupport

@Suite struct DiskFullChatProcessTests {
    @Test func aMessageThatCannotBeStoredIsBouncedAndTheNextOneAfterTheSpaceReturnsIsStored() throws {
        let directory = try TemporaryDirectory(prefix: "disk-full-chat")
        let database = directory.file("sandbox.db")
        // SIGXFSZ at its default: the sandbox must ignore it itself.
        let sandbox = try SandboxProcess(arguments: ["--db", database, "--password-iterations", "1000", "--log-level", "warning"],
                                         launch: { ("/bin/sh", ["-c", "exec prlimit --fsize=\(2 << 20):unlimited -- \"$0\" \"$@\"", $0] + $1) })
        let pair = try AnnStreamsToBob(on: sandbox, suffix: "chatfull")
        let (client, dialogId, annToken) = (pair.client, pair.dialogId, pair.annToken)

        // Fill the database over REST until it answers 507.
        var full = false
        for index in 0..<200 where !full {
            let r = try sandbox.response(method: "POST", path: "/chat/Message.json",
                                         params: [("chat_dialog_id", dialogId), ("message", "fill \(index) " + String(repeating: "y", count: 60_000))],
                                         token: annToken)
            full = r.status == 507
            try #require(full || r.status == 201, "\(r.status) \(r.body)")
        }
        try #require(full, "the limit was never reached")

        func message(_ id: String, _ text: String) -> String { pair.message(id: id, text) + "<r xmlns='urn:xmpp:sm:3'/>" }
        client.clear()
        client.send(message("m-full", "not stored " + String(repeating: "z", count: 30_000)))
        #expect(client.read(untilContains: "</message>", timeout: 20))
        #expect(client.received.contains("type='error'") && client.received.contains("<resource-constraint")
                && client.received.contains("type='wait'"), "\(client.received)")
        #expect(!client.received.contains("</stream:stream>"), "the stream stays up")
        #expect(sandbox.process.isRunning)

        let raised = try runProcess("/usr/bin/prlimit", ["--pid", String(sandbox.pid), "--fsize=unlimited:unlimited"], timeout: 10)
        try #require(raised.status == 0, "\(raised.stderr)")
        client.clear()
        client.send(message("m-back", "stored after the space came back"))
        #expect(client.read(until: { $0.contains("<a xmlns='urn:xmpp:sm:3' h='") }, timeout: 20), "\(client.received)")
        #expect(!client.received.contains("type='error'"), "\(client.received)")
        let texts = try sandbox.messageTexts(token: annToken, dialogID: dialogId)
        #expect(texts.last == "stored after the space came back")
        #expect(!texts.contains { $0.hasPrefix("not stored") })
        #expect(sandbox.stop() == 0, "\(sandbox.stderr)")
        let check = try runProcess("/usr/bin/sqlite3", ["-readonly", database, "PRAGMA integrity_check"], timeout: 60)
        #expect(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }
}
