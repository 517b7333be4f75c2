import Testing
import TestSupport
import XMPPTransport

@Suite("Delivery tracking, keep-alive, backoff")
struct DeliveryAndTimingTests {
    static func ids(_ n: Int) -> [ObjectID] {
        var generator = ObjectIDGenerator(randomPart: [1, 2, 3, 4, 5], counter: 0)
        return (0..<n).map { _ in generator.next(unixTime: 1_700_000_000) }
    }

    @Test func ackMapsSequenceNumbersToMessageIDs() {
        var tracker = DeliveryTracker(requestEvery: 50)
        tracker.enabled()
        let ids = Self.ids(3)
        _ = tracker.recordSent(messageID: nil)  // initial presence: counted, not tracked
        let seqs = ids.map { tracker.recordSent(messageID: $0).sequence }
        #expect(seqs == [2, 3, 4])
        do { let result = tracker.acknowledge(h: 1); #expect(result == []) }
        do { let result = tracker.acknowledge(h: 3); #expect(result == Array(ids[0...1])) }
        #expect(tracker.isAcknowledged(3) && !tracker.isAcknowledged(4))
        #expect(tracker.unacknowledged == [ids[2]])
    }

    @Test func duplicateStaleAndImpossibleAcksAcknowledgeNothing() {
        var tracker = DeliveryTracker()
        tracker.enabled()
        let ids = Self.ids(5)
        for id in ids { _ = tracker.recordSent(messageID: id) }
        do { let result = tracker.acknowledge(h: 3); #expect(result == Array(ids[0..<3])) }
        do { let result = tracker.acknowledge(h: 3); #expect(result == [], "duplicate") }
        do { let result = tracker.acknowledge(h: 2); #expect(result == [], "stale (out of order)") }
        #expect(tracker.ledger.acknowledgedCount == 3, "a stale h does not move the count back")
        do { let result = tracker.acknowledge(h: 9); #expect(result == [], "beyond what was sent") }
        #expect(tracker.unacknowledged == Array(ids[3...]))
        do { let result = tracker.acknowledge(h: 5); #expect(result == Array(ids[3...])) }
        #expect(tracker.unacknowledged.isEmpty)
    }

    @Test func ackRequestsEveryNAndOnIdleButNotPerMessage() {
        var early = DeliveryTracker(requestEvery: 1)
        do { let result = early.recordSent(messageID: nil).requestAck; #expect(result == false, "no <r/> before SM is enabled") }
        do { let result = early.sendQueueIdle(); #expect(result == .pingBarrier, "no SM answer yet: a ping is the barrier") }
        var tracker = DeliveryTracker(requestEvery: 50)
        tracker.enabled()
        var requests = 0
        for id in Self.ids(10_000) where tracker.recordSent(messageID: id).requestAck { requests += 1 }
        #expect(requests == 200, "one <r/> per 50 messages")
        do { let result = tracker.sendQueueIdle(); #expect(result == .none, "everything sent is already covered by a request") }
        _ = tracker.recordSent(messageID: nil)
        do { let result = tracker.sendQueueIdle(); #expect(result == .requestAck, "idle with an unrequested stanza: ask") }
        do { let result = tracker.sendQueueIdle(); #expect(result == .none, "asked once, not again") }
        _ = tracker.acknowledge(h: tracker.ledger.sentCount)
        do { let result = tracker.sendQueueIdle(); #expect(result == .none, "nothing outstanding") }
    }

    @Test func withoutStreamManagementAPingReplyIsTheBarrier() {
        var tracker = DeliveryTracker(requestEvery: 50)
        tracker.failed()
        let ids = Self.ids(60)
        var requests = 0
        for id in ids where tracker.recordSent(messageID: id).requestAck { requests += 1 }
        #expect(requests == 0, "no <r/> without SM")
        do { let action = tracker.sendQueueIdle(); #expect(action == .pingBarrier) }
        let ping = tracker.recordSent(messageID: nil).sequence
        tracker.barrierSent()
        do { let action = tracker.sendQueueIdle(); #expect(action == .none, "the barrier ping needs no barrier") }
        do { let acked = tracker.acknowledge(h: ping); #expect(acked == ids) }
    }

    @Test func trackerKeepsUpWithALongStream() {
        var tracker = DeliveryTracker()
        tracker.enabled()
        let ids = Self.ids(20_000)
        var acked: [ObjectID] = []
        for (i, id) in ids.enumerated() {
            _ = tracker.recordSent(messageID: id)
            if i % 97 == 0 { acked += tracker.acknowledge(h: UInt32(i + 1)) }
        }
        acked += tracker.acknowledge(h: 20_000)
        #expect(acked == ids)
    }

    @Test func keepAlivePingsAfterSilenceAndDeclaresDeathAfterTimeout() {
        var k = KeepAliveSchedule(interval: 60, timeout: 20, now: 0)
        do { let result = k.tick(now: 59); #expect(result == .none) }
        do { let result = k.tick(now: 60); #expect(result == .sendPing) }
        do { let result = k.tick(now: 61); #expect(result == .none, "one ping per silence") }
        do { let result = k.tick(now: 79.9); #expect(result == .none) }
        do { let result = k.tick(now: 80); #expect(result == .connectionDead) }
        var answered = KeepAliveSchedule(interval: 60, timeout: 20, now: 0)
        _ = answered.tick(now: 60)
        answered.heard(at: 65)
        do { let result = answered.tick(now: 100); #expect(result == .none, "an answer resets the silence") }
        do { let result = answered.tick(now: 125); #expect(result == .sendPing) }
        var chatty = KeepAliveSchedule(interval: 60, timeout: 20, now: 0)
        for t in stride(from: 0.0, to: 500, by: 30) { chatty.heard(at: t); let action = chatty.tick(now: t + 1); #expect(action == .none) }
        var off = KeepAliveSchedule(interval: 0, timeout: 20, now: 0)
        do { let result = off.tick(now: 10_000); #expect(result == .none) }
    }

    @Test func backoffIsCappedFullJitterAndResetsWhenStable() {
        var backoff = ReconnectBackoff(base: 1, cap: 30, stableAfter: 60)
        var rng = SplitMix(seed: 42)
        var ceilings: [Double] = []
        for _ in 0..<12 {
            let ceiling = backoff.currentCeiling
            ceilings.append(ceiling)
            let delay = backoff.nextDelay(using: &rng)
            #expect(delay >= 0 && delay <= ceiling)
        }
        #expect(ceilings == [1, 2, 4, 8, 16, 30, 30, 30, 30, 30, 30, 30])
        backoff.connectionLasted(10)
        #expect(backoff.attempt == 12, "a short-lived connection does not reset")
        backoff.connectionLasted(60)
        #expect(backoff.attempt == 0 && backoff.currentCeiling == 1)
        var many = ReconnectBackoff(base: 1, cap: 30)
        let delays = (0..<2000).map { _ in many.nextDelay(using: &rng) }
        #expect(delays.allSatisfy { $0 <= 30 })
        #expect(delays.dropFirst(10).contains { $0 < 5 }, "full jitter: small delays stay possible")
        var huge = ReconnectBackoff(base: 1, cap: 60)
        for _ in 0..<200 { _ = huge.nextDelay(using: &rng) }
        #expect(huge.currentCeiling == 60, "no overflow after many attempts")
    }

    @Test func mailboxHandsOffAcrossThreadsInOrder() async {
        let mailbox = CommandMailbox<Int>()
        #expect(!mailbox.hasPending)
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<4 {
                group.addTask { for i in 0..<1000 { mailbox.post(producer * 10_000 + i) } }
            }
        }
        #expect(mailbox.hasPending)
        let drained = mailbox.drain()
        #expect(drained.count == 4000 && !mailbox.hasPending)
        for producer in 0..<4 {
            let mine = drained.filter { $0 / 10_000 == producer }
            #expect(mine == mine.sorted(), "each producer's order kept")
        }
        mailbox.post(1)
        #expect(mailbox.close() == [1])
        #expect(!mailbox.post(2) && mailbox.drain().isEmpty)
    }
}
