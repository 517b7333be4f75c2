import SandboxLogging
import SandboxNetwork
import SandboxStorage

/// Group commit, one transaction per turn of the event loop (docs/protocol.md §7,
/// "Acknowledgements"): what chat stores while the loop runs its ready callbacks goes into one
/// transaction, committed at the end of that turn, and everything the chat streams were told
/// in the turn (acknowledgements, deliveries, answers) is held until then. So a message is
/// stored before the next stanza is read, as before, but nothing about it leaves the server
/// until it is on disk, and a hundred messages cost one commit instead of a hundred.
///
/// If the commit fails, nothing of the turn stands: the streams it would have told anything
/// lose what was held for them and end with `internal-server-error`; their clients come back
/// and send again what was not acknowledged.
///
/// Loop thread only. The end of a turn is a `LoopEvent` activated when the first work of a turn
/// arrives: libevent runs it after the callbacks already ready in that turn, before it waits
/// for the network again.
package final class TurnCommit {
    private let store: ChatStore?
    private let log: SandboxLog
    private var event: LoopEvent?
    private var isScheduled = false
    /// Connections that have output held, in the order they first wrote in this turn.
    private var held: [XMPPClientConnection] = []
    /// Whether this turn opened a transaction.
    private(set) var isOpen = false

    /// `store` nil: nothing is stored (a server without storage); output is still held per turn.
    package init(loop: EventLoop, store: ChatStore?, log: SandboxLog) {
        self.store = store
        self.log = log
        event = LoopEvent(loop: loop, .afterTurn) { [unowned self] in self.finish() }
    }

    deinit {
        if isOpen { try? store?.commitTurn() }
    }

    /// Before chat writes anything this turn: opens the turn's transaction if none is open.
    func beginWriting() {
        // While the disk is full, each write commits on its own, so a message that cannot be
        // stored is answered at once with a stanza error instead of ending every stream.
        guard !isOpen, let store, !store.isInTransaction, !store.space.isShort else { return }
        do {
            try store.beginTurn()
            isOpen = true
            schedule()
        } catch {
            // Each write then commits on its own, as before group commit.
            log.log(.error, "xmpp: cannot begin the turn's transaction: \(error)")
        }
    }

    /// `connection` has output to send once the turn's writes are committed.
    func hold(_ connection: XMPPClientConnection) {
        held.append(connection)
        schedule()
    }

    private func schedule() {
        guard !isScheduled, let event else { return }
        isScheduled = true
        event.activate()
    }

    /// Ends the turn now: commits, then hands every held output to its connection. Also what
    /// a REST request does before it is handled, so its own writes commit on their own, and
    /// what a shutdown does before the last goodbyes.
    package func finish() {
        isScheduled = false
        let committed = commit()
        let told = held
        held = []
        if committed {
            for connection in told { connection.flushHeld() }
            return
        }
        store?.forgetRoutingCaches()
        for connection in told {
            connection.discardHeld()
            connection.terminate(.internalServerError)
        }
        // The stream errors themselves (no transaction is open now).
        let errors = held
        held = []
        for connection in errors { connection.flushHeld() }
    }

    /// Commits the turn's transaction; false when what the turn stored is lost.
    private func commit() -> Bool {
        guard isOpen, let store else { return true }
        isOpen = false
        // SQLite rolls a transaction back by itself after some failures (a full disk, an I/O error).
        guard store.isInTransaction else {
            store.forgetLastMessages()
            log.log(.error, "xmpp: the turn's transaction was rolled back; ending the streams it would have answered")
            return false
        }
        do {
            // The dialogs' last messages, once per dialog, inside the turn's transaction.
            try store.commitTurn()
            return true
        } catch {
            if let reason = StorageSpace.shortage(in: error) {
                store.space.isShort = true
                SpaceNotice.process.short("the database", reason: reason)
            }
            log.log(.error, "xmpp: commit failed, ending the streams it would have answered: \(error)")
            return false
        }
    }
}

@available(*, unavailable) extension TurnCommit: Sendable {}
