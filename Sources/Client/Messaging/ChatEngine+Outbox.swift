import Diagnostics
import MessageCache
import QuickBloxAPI
import XMPPTransport
import ChatIdentifiers

/// Sending through the outbox (docs/protocol.md §7): a stream of texts, one entry another
/// thread queued, and the flush of whatever waits there; for a command that sends and
/// ends, the waits for room and for the last acks.
extension ChatEngine {
    /// Messages moved from the outbox to history by this engine so far.
    package var deliveredCount: Int { outbox.delivered }
    /// Messages this engine gave back to the outbox (a failure, a lost connection).
    package var undeliveredCount: Int { outbox.undelivered }
    /// Messages the server refused for good: they left the outbox.
    package var refusedCount: Int { outbox.refused }

    /// Queues `texts` (one transaction) and writes them, unless the connection is down (they
    /// wait for the reconnect) or sending has failed (they wait for `outbox flush`).
    func send(_ texts: [String], to dialog: CachedDialog) throws(Failure) {
        try outbox.send(texts.map { ($0, []) }, to: dialog)
    }

    /// Sends outbox entries claimed by this process again under their own ids (`send --attach`
    /// once its files are up).
    package func resend(_ entries: [OutboxEntry], to dialog: CachedDialog) throws(Failure) {
        try outbox.resend(entries, to: dialog)
    }

    /// Sends one outbox entry another thread queued (the chat view's Enter, a finished upload).
    func deliver(_ clientID: String, dialogID: DialogID) {
        // Each is the person's own action: one refused before does not hold this one back.
        outbox.failure = nil
        guard connected, outbox.disconnected == nil, !outbox.inFlightIDs.contains(clientID) else { return }
        guard let entry = try? service.outboxEntry(clientMessageID: clientID), entry.isReadyToSend,
              let dialog = try? dialog(dialogID) else { return }
        do { try outbox.resend([entry], to: dialog) } catch {
            emit(.notice(.failed(.send, error)))
        }
        reportOutbox()
    }

    /// What a flush did besides sending.
    package struct FlushReport: Sendable {
        /// Entries the server already had: they only left the outbox.
        package var alreadyThere = 0
        /// Entries whose files could not be finished: they wait in the outbox.
        package var notUploaded = 0
        /// The first failure that left something in the outbox.
        package var failure: Failure?
        /// Entries that left the outbox unsent, each with why: blank, or refused for good.
        package var dropped: [Failure] = []
    }

    /// What waited in the outbox, each exactly once: entries the server already has leave it
    /// (each dialog's history since its oldest entry is read once, by `_id` or client id); an
    /// entry whose files are not all up has them finished first, here before connecting (a
    /// long upload would leave the connection idle) or by the files thread
    /// (`uploadsElsewhere`); the rest go again under their own ids, connecting if need be.
    @discardableResult
    package func flushOutbox() -> FlushReport {
        var report = FlushReport()
        let claimed: (alreadyThere: Int, toSend: [(CachedDialog, [OutboxEntry])], failures: [Failure], dropped: [Failure])
        do { claimed = try service.claimForFlush(owner: owner) } catch {
            emit(.notice(.failed(.flushOutbox, error)))
            report.failure = error
            return report
        }
        report.alreadyThere = claimed.alreadyThere
        report.failure = claimed.failures.first
        report.dropped = claimed.dropped
        for refusal in claimed.dropped where refusal.isPermanent { emit(.notice(.failed(.flushSome, refusal))) }
        if let failure = claimed.failures.first { emit(.notice(.failed(.flushSome, failure))) }
        var ready: [(CachedDialog, [OutboxEntry])] = []
        let pipeline = AttachPipeline(service: service, owner: owner)
        let inFlight = outbox.inFlightIDs
        for (dialog, entries) in claimed.toSend {
            var group: [OutboxEntry] = []
            for entry in entries where !inFlight.contains(entry.clientMessageID) {
                if entry.isReadyToSend {
                    group.append(entry)
                } else if let uploadsElsewhere {
                    uploadsElsewhere(entry)
                } else {
                    do { group.append(try pipeline.upload(entry) { emit(.transfer($0)) }) } catch {
                        report.notUploaded += 1
                        if report.failure == nil { report.failure = error }
                    }
                }
            }
            if !group.isEmpty { ready.append((dialog, group)) }
        }
        if !ready.isEmpty {
            if !connected {
                do { try connect(joining: ready.map(\.0)) } catch {
                    for (_, entries) in ready { outbox.giveBack(entries, error) }
                    if report.failure == nil { report.failure = error }
                    return report
                }
            }
            for (dialog, entries) in ready {
                do {
                    try link.joinRooms(of: [dialog])
                    try outbox.resend(entries, to: dialog)
                } catch {
                    outbox.giveBack(entries, error)
                    if report.failure == nil { report.failure = error }
                    emit(.notice(.failed(.sendTo(dialog.label), error)))
                }
            }
        }
        reportOutbox()
        // Entries the server already had are history now: the open dialog shows them as such.
        if claimed.alreadyThere > 0, let followed, let recent = try? service.cache.history(dialogID: followed, limit: 50) {
            emitMessages(.caughtUp(dialogID: followed, recent))
        }
        return report
    }

    /// The followed dialog's outbox entries, as they stand now.
    func reportOutbox() {
        guard let followed, let entries = try? service.pendingOutbox(dialogID: followed) else { return }
        emit(.outbox(dialogID: followed, entries, inFlight: connected ? outbox.inFlightIDs : []))
    }

    // MARK: a command that sends and ends

    /// Runs the connection once without waiting: what is queued goes out, acks are processed,
    /// a lost connection is made again as the policy says, the session kept alive when due.
    /// `settling`: what was acknowledged leaves the outbox now (input paused), not at the next thousand.
    package func pump(settling: Bool = false) {
        link.pump(timeout: 0, sliceMilliseconds: 10, until: nil)
        recoverIfLost()
        keepSessionAliveWhileSending()
        if settling || outbox.hasManyAcknowledged { settle() }
    }

    /// With `window` messages in flight: runs the connection until acks make room, the
    /// connection is lost (made again as the policy says), or nothing was acknowledged for
    /// `timeout` seconds (what is in flight then waits in the outbox, as in `finish`).
    package func waitForRoom(timeout: Double = 15) {
        let start = ContinuousClock.now
        while outbox.failure == nil, core.pendingLoss == nil, outbox.disconnected == nil, outbox.inFlight.count >= settings.window {
            link.pump(timeout: 0.1, sliceMilliseconds: 10) { [unowned self] in outbox.inFlight.count < settings.window }
            if ContinuousClock.now - max(start, outbox.lastProgress) > .milliseconds(Int64(timeout * 1000)) {
                outbox.lose(Self.silentServer(after: timeout))
            }
        }
        recoverIfLost()
        settle()
    }

    /// Waits until everything sent is acknowledged, for as long as acks keep coming (a large
    /// batch takes a while), giving up after `timeout` seconds without progress; what is not
    /// acknowledged stays in the outbox. A connection lost meanwhile is made again as the
    /// policy says. Returns the failure that left something in the outbox, if any.
    package func finish(timeout: Double = 15) -> Failure? {
        var lastProgress = ContinuousClock.now
        var acknowledged = link.acknowledgedCount
        while outbox.failure == nil && (!outbox.inFlight.isEmpty || outbox.disconnected != nil || core.pendingLoss != nil) {
            if core.pendingLoss != nil || outbox.disconnected != nil {
                recoverIfLost()
                lastProgress = .now
                acknowledged = link.acknowledgedCount
                continue
            }
            do {
                try link.waitForAcknowledgement(timeout: 1)
                if core.pendingLoss == nil { break }  // everything sent is acknowledged; anything still in flight is handled below
            } catch where error.kind == .timedOut && link.isConnected {
                if link.acknowledgedCount != acknowledged {
                    acknowledged = link.acknowledgedCount
                    lastProgress = .now
                } else if ContinuousClock.now - lastProgress > .milliseconds(Int64(timeout * 1000)) {
                    outbox.lose(Self.silentServer(after: timeout))
                }
            } catch {
                if core.pendingLoss == nil { feed(.linkLost(Failure(describing: error))) }
            }
        }
        settle()
        if !outbox.inFlight.isEmpty { outbox.lose(outbox.failure ?? Failure(.temporary, "the server did not acknowledge every message in time")) }
        settle()
        return outbox.failure
    }

    /// Why what is in flight goes back to the outbox when acks stop coming.
    private static func silentServer(after timeout: Double) -> Failure {
        Failure(.temporary, "the server acknowledged nothing more for \(Int(timeout)) s", hint: "it may be overloaded; try again later")
    }

    /// A loss seen by a command that sends: handled now (its policy never ends the command).
    private func recoverIfLost() {
        guard let error = core.pendingLoss ?? outbox.disconnected else { return }
        do { try recover(from: error) } catch {
            outbox.giveUp(error)
        }
    }
}
