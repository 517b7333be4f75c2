import Testing
import Foundation
@testable import MessageCache
import SQLiteStore
import TestSupport
import ChatIdentifiers

/// Several chatctl processes on one cache: this test binary re-runs itself
/// with a filter selecting `worker()`, which does what a process would do.
@Suite("MessageCache: many processes at once")
struct ProcessConcurrencyTests {
    static let pathVariable = "CHATCTL_CACHE_WORKER_PATH"
    static let indexVariable = "CHATCTL_CACHE_WORKER_INDEX"
    static let environment = ProcessInfo.processInfo.environment
    static let isWorker = environment[pathVariable] != nil
    static let processes = 4, writes = 200, outbox = 100

    @Test(.enabled(if: !isWorker))
    func fourProcessesWriteAndFlushTheOutboxAtOnce() throws {
        let fixture = try CacheFixture()
        let cache = try fixture.open()
        for i in 0..<Self.outbox {
            try cache.enqueue(dialogID: dialogID(1), text: "m\(i)", clientMessageID: hexID(i, prefix: "c"), createdAt: i)
        }
        try cache.database.execute("CREATE TABLE test_deliveries (client_message_id TEXT NOT NULL, pid INTEGER NOT NULL)")

        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let workers = try (0..<Self.processes).map { index in
            try ChildProcess(executable, ["--testing-library", "swift-testing", "--filter", "ProcessConcurrencyTests/worker"],
                             environment: [Self.pathVariable: fixture.path, Self.indexVariable: String(index)])
        }
        for worker in workers {
            let result = worker.finish(timeout: 120)
            let output = result.stdout + result.stderr
            #expect(result.status == 0 && !result.timedOut, "\(output)")
            #expect(output.contains("worker() passed"), "\(output)")
        }
        #expect(try cache.messageCount() == Self.processes * Self.writes + Self.outbox)
        #expect(try cache.pending().isEmpty)
        let delivered = try cache.database.query("SELECT client_message_id FROM test_deliveries") { $0.string(0) ?? "" }
        #expect(delivered.count == Self.outbox)
        #expect(Set(delivered).count == Self.outbox, "an outbox entry was sent twice")
    }

    @Test(.enabled(if: isWorker))
    func worker() throws {
        let path = try #require(Self.environment[Self.pathVariable])
        let index = try #require(Self.environment[Self.indexVariable].flatMap { Int($0) })
        let cache = try ChatCache(path: path)
        let pid = Int(getpid())
        let dialog = dialogID(index)
        var claimedAny = true
        for i in 0..<Self.writes {
            try cache.upsertMessages([message(index * 10_000 + i, dialog: dialog, date: i, text: "process \(index) write \(i)")])
            // Interleave an outbox flush: claim, "send", record, mark delivered.
            guard claimedAny else { continue }
            let claimed = try cache.claim(limit: 2, owner: pid)
            claimedAny = !claimed.isEmpty
            for entry in claimed {
                try cache.database.transaction {
                    try cache.database.run(
                        "INSERT INTO test_deliveries (client_message_id, pid) VALUES (?, ?)",
                        [.text(entry.clientMessageID), .integer(Int64(pid))])
                }
                let id = "f" + entry.clientMessageID.dropFirst()
                try cache.markDelivered(
                    clientMessageID: entry.clientMessageID,
                    serverMessage: CachedMessage(
                        id: String(id), dialogID: entry.dialogID, senderID: pid, dateSent: entry.createdAt,
                        text: entry.text, rawJSON: "{}"))
            }
        }
    }
}
