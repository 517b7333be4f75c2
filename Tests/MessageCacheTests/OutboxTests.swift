import Testing
import Foundation
import MessageCache
import ChatIdentifiers

@Suite("MessageCache: outbox")
struct OutboxTests {
    let fixture: CacheFixture
    let d = dialogID(1)
    let alwaysAlive: (Int) -> Bool = { _ in true }

    init() throws { fixture = try CacheFixture() }

    /// `outbox drop`: a live sender's fresh claim protects its entry; a dead
    /// sender's or a stale claim does not; an entry not there is said so.
    @Test func dropRespectsALiveClaimOnly() throws {
        let cache = try fixture.open()
        let one = hexID(1, prefix: "c"), two = hexID(2, prefix: "c")
        try cache.enqueue(dialogID: d, text: "one", clientMessageID: one, createdAt: 10)
        try cache.enqueue(dialogID: d, text: "two", clientMessageID: two, createdAt: 20)
        _ = try cache.claim(limit: 1, owner: 100, now: 1000, isAlive: alwaysAlive)
        #expect(try cache.drop(clientMessageID: one, now: 1010, isAlive: alwaysAlive) == .inUse(100))
        #expect(try cache.drop(clientMessageID: one, now: 1010, isAlive: { _ in false }) == .dropped)
        #expect(try cache.drop(clientMessageID: one, now: 1010, isAlive: alwaysAlive) == .notFound)
        _ = try cache.claim(limit: 1, owner: 100, now: 1000, isAlive: alwaysAlive)
        #expect(try cache.drop(clientMessageID: two, now: 1000 + 301, isAlive: alwaysAlive) == .dropped, "a stale claim")
        #expect(try cache.pending().isEmpty)
    }

    @Test func enqueuePendingClaimDeliver() throws {
        let cache = try fixture.open()
        let a = try cache.enqueue(dialogID: d, text: "one", clientMessageID: hexID(1, prefix: "c"), createdAt: 10)
        let b = try cache.enqueue(dialogID: d, text: "two", clientMessageID: hexID(2, prefix: "c"), createdAt: 20)
        #expect(a != b)
        #expect(try cache.enqueue(dialogID: d, text: "one", clientMessageID: hexID(1, prefix: "c"), createdAt: 10) == a)
        #expect(try cache.pending().map(\.text) == ["one", "two"])

        let claimed = try cache.claim(limit: 10, owner: 100, now: 1000, isAlive: alwaysAlive)
        #expect(claimed.map(\.rowID) == [a, b])
        #expect(claimed.allSatisfy { $0.claimedBy == 100 && $0.claimedAt == 1000 })
        #expect(try cache.claim(limit: 10, owner: 200, now: 1001, isAlive: alwaysAlive).isEmpty)
        #expect(try cache.pending().map(\.claimedBy) == [100, 100])

        let server = message(1, dialog: d, date: 30, text: "one")
        #expect(try cache.markDelivered(clientMessageID: hexID(1, prefix: "c"), serverMessage: server))
        #expect(try !cache.markDelivered(clientMessageID: hexID(1, prefix: "c")))
        #expect(try cache.pending().map(\.text) == ["two"])
        #expect(try cache.history(dialogID: d) == [server])

        try cache.releaseClaim(clientMessageID: hexID(2, prefix: "c"), owner: 100, error: "HTTP 503")
        let released = try #require(try cache.pending().first)
        #expect(released.claimedBy == nil)
        #expect(released.attempts == 1)
        #expect(released.lastError == "HTTP 503")
        #expect(try cache.claim(limit: 10, owner: 200, now: 1002, isAlive: alwaysAlive).map(\.rowID) == [b])
    }

    @Test func batchEnqueueAndBatchDelivery() throws {
        let cache = try fixture.open()
        let batch = (1...3).map { (clientMessageID: hexID($0, prefix: "c"), text: "line \($0)") }
        try cache.enqueue(batch, dialogID: d, createdAt: 10, owner: 100)
        try cache.enqueue([batch[0]], dialogID: d, createdAt: 11, owner: 100)  // again: no second row
        let pending = try cache.pending()
        #expect(pending.map(\.text) == ["line 1", "line 2", "line 3"])
        #expect(pending.allSatisfy { $0.claimedBy == 100 && $0.claimedAt == 10 && $0.createdAt == 10 })

        let delivered = [message(1, dialog: d, date: 30, text: "line 1"), message(2, dialog: d, date: 31, text: "line 2")]
        #expect(try cache.markDelivered([(hexID(1, prefix: "c"), delivered[0]), (hexID(2, prefix: "c"), delivered[1]),
                                         (hexID(9, prefix: "c"), message(9, dialog: d, date: 32))]) == 2)
        #expect(try cache.pending().map(\.text) == ["line 3"])
        #expect(try cache.history(dialogID: d).map(\.text) == ["line 1", "line 2", "hello"])
    }

    @Test func staleClaimIsRetaken() throws {
        let cache = try fixture.open()
        try cache.enqueue(dialogID: d, text: "x", clientMessageID: hexID(1, prefix: "c"), createdAt: 1)
        #expect(try cache.claim(limit: 1, owner: 100, now: 1000, staleAfter: 60, isAlive: alwaysAlive).count == 1)
        #expect(try cache.claim(limit: 1, owner: 200, now: 1059, staleAfter: 60, isAlive: alwaysAlive).isEmpty)
        #expect(try cache.claim(limit: 1, owner: 200, now: 1060, staleAfter: 60, isAlive: alwaysAlive).map(\.claimedBy) == [200])
    }

    @Test func claimOfADeadProcessIsRetaken() throws {
        let cache = try fixture.open()
        try cache.enqueue(dialogID: d, text: "x", clientMessageID: hexID(1, prefix: "c"), createdAt: 1)
        let deadPID = Int(Int32.max)  // above any pid_max
        #expect(!ChatCache.processIsAlive(deadPID))
        #expect(ChatCache.processIsAlive(Int(getpid())))
        #expect(try cache.claim(limit: 1, owner: deadPID, now: 1000).count == 1)
        // Fresh claim, but its owner is gone: taken over with the real liveness check.
        #expect(try cache.claim(limit: 1, owner: Int(getpid()), now: 1001).map(\.claimedBy) == [Int(getpid())])
        // Now held by a live process: not taken.
        #expect(try cache.claim(limit: 1, owner: deadPID, now: 1002).isEmpty)
    }

    @Test func concurrentClaimersNeverShareAnEntry() throws {
        let cache = try fixture.open()
        let count = 200
        for i in 0..<count {
            try cache.enqueue(dialogID: d, text: "m\(i)", clientMessageID: hexID(i, prefix: "c"), createdAt: i)
        }
        let path = fixture.path
        let claims = Claims()
        let failures = Failures()
        onThreads(4) { worker in
            do {
                let own = try ChatCache(path: path)
                while true {
                    let got = try own.claim(limit: 3, owner: 1000 + worker, now: 5000, isAlive: { _ in true })
                    if got.isEmpty { break }
                    claims.add(got.map(\.clientMessageID))
                    for entry in got { try own.markDelivered(clientMessageID: entry.clientMessageID) }
                }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        #expect(claims.all.count == count)
        #expect(Set(claims.all).count == count)
        #expect(try cache.pending().isEmpty)
    }
}
