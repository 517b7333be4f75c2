// The real chatctl-sandbox with a database file, killed while a client streams messages:
// whatever it had acknowledged is in history after a restart (group commit holds every ack
// until the turn's transaction is on disk, docs/protocol.md §7).
import Foundation
import Testing
import TestSupport

@Suite struct GroupCommitProcessTests {
    @Test func aCrashLosesNoMessageThatWasAcknowledged() throws {
        let directory = try TemporaryDirectory(prefix: "group-commit")
        let database = directory.file("sandbox.db")
        let arguments = ["--db", database, "--password-iterations", "1000", "--log-level", "warning"]
        let sandbox = try SandboxProcess(arguments: arguments)
        let pair = try AnnStreamsToBob(on: sandbox, suffix: "crash")
        let (client, dialogId) = (pair.client, pair.dialogId)
        client.clear()

        // Batches of 50, an ack asked for after each, up to 400 in flight; killed mid-stream.
        func acknowledged() -> Int {
            client.received.components(separatedBy: "<a xmlns='urn:xmpp:sm:3' h='").dropFirst()
                .compactMap { Int($0.prefix { $0.isNumber }) }.max() ?? 0
        }
        var sent = 0
        func sendBatch() {
            var batch = ""
            for _ in 0..<50 {
                sent += 1
                batch += pair.message(id: "c-\(sent)", "crash \(sent)")
            }
            client.send(batch + "<r xmlns='urn:xmpp:sm:3'/>")
        }
        while acknowledged() < 600 {
            sendBatch()
            let floor = sent - 400
            #expect(client.read(until: { _ in acknowledged() >= floor }, timeout: 20))
        }
        // Two more batches on their way, then the crash.
        sendBatch()
        sendBatch()
        sandbox.crash()
        _ = client.waitForClose(timeout: 5)
        let acked = acknowledged()
        #expect(acked >= 600)

        let restarted = try SandboxProcess(arguments: arguments)
        let token = try restarted.createSession(login: "ann-crash", password: "password-ann")
        let stored = try restarted.messageTexts(token: token, dialogID: dialogId)
        // Everything acknowledged is there, once and in order; what came after may be too.
        #expect(stored.count >= acked && stored.count <= sent)
        #expect(Array(stored.prefix(acked)) == (1...acked).map { "crash \($0)" })
        #expect(Set(stored).count == stored.count)
        restarted.stop()
    }
}
