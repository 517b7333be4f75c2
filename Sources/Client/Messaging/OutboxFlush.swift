import Diagnostics

/// `outbox flush` to the end (docs/protocol.md §7): one flush of a chat engine claims at most
/// 10,000 entries (`MessagingService.claimForFlush`), so rounds follow while the last one moved
/// something and nothing failed, and the outbox is emptied. What it comes to is told as values:
/// the caller says them.
package struct OutboxFlush {
    /// Messages that left the outbox delivered (or found already on the server).
    package var delivered = 0
    /// Messages still in the outbox (their files not finished, or not acknowledged).
    package var undelivered = 0
    /// Blank entries that left the outbox unsent, each with why.
    package var blank: [Failure] = []
    /// What the server refused for good, each with its reason (gone from the outbox).
    package var refusals: [Failure] = []
    /// How many messages the server refused for good.
    package var refused = 0
    /// Why the flush did not end well, for the caller to throw: messages still waiting, or
    /// refusals (each already in `refusals`); nil when it did.
    package var verdict: Failure?

    /// Flushes `engine`'s outbox in rounds, then waits for its last acknowledgements.
    package init(running engine: ChatEngine) {
        var flushed = engine.flushOutbox()
        var finished = engine.finish()
        var moved = flushed.alreadyThere + engine.deliveredCount + flushed.dropped.count
        while flushed.failure == nil, finished == nil, flushed.notUploaded == 0, moved > 0 {
            let deliveredBefore = engine.deliveredCount
            let round = engine.flushOutbox()
            finished = engine.finish()
            flushed.alreadyThere += round.alreadyThere
            flushed.notUploaded += round.notUploaded
            flushed.failure = round.failure
            flushed.dropped += round.dropped
            moved = round.alreadyThere + engine.deliveredCount - deliveredBefore + round.dropped.count
        }
        self.init(flushed, finished: finished, delivered: engine.deliveredCount, undelivered: engine.undeliveredCount,
                  refused: engine.refusedCount)
    }

    /// The rounds' report and the engine's counts, tallied: `finished` is what the engine's last
    /// wait ended with.
    init(_ flushed: ChatEngine.FlushReport, finished: Failure?, delivered: Int, undelivered: Int, refused: Int) {
        let failure = flushed.failure ?? finished
        self.delivered = flushed.alreadyThere + delivered
        self.undelivered = flushed.notUploaded + undelivered
        // Left the outbox unsent: blank entries, and what the server refused for good.
        blank = flushed.dropped.filter { !$0.isPermanent }
        refusals = flushed.dropped.filter(\.isPermanent)
        if refused > 0 {
            let reason = [finished, flushed.failure].compactMap { $0 }.first(where: \.isPermanent)
            refusals.append(reason ?? Failure(.failure, "the server refused a message", hint: "the message was not kept in the outbox"))
        }
        self.refused = flushed.dropped.filter(\.isPermanent).count + refused
        let stillWaiting = failure.map { !$0.isPermanent } ?? false
        if self.undelivered > 0 || (flushed.failure != nil && stillWaiting), let error = failure {
            let count = max(self.undelivered, 1)
            verdict = Failure(.undelivered(count), "\(count) message\(count == 1 ? "" : "s") still not delivered (\(error.message))",
                              hint: "they stay in the outbox; try again later")
        } else if !refusals.isEmpty {
            let count = self.refused
            // Each is said with the server's reason; the status says not all went well.
            verdict = Failure(.failure, "the server refused \(count) message\(count == 1 ? "" : "s"), removed from the outbox")
        }
    }
}
