import Synchronization

/// The hand-off between threads and the one thread that owns an `XMPPConnection`
/// (which is not Sendable): any thread `post`s; the owner `drain`s between pumps.
/// Test support: the transport tests and interop benchmarks drive a connection this way. Pump with
/// `XMPPConnection.pump(timeout:until:)` and `{ mailbox.hasPending }` so posted work
/// is picked up within one 10 ms slice instead of after the whole timeout:
///
///     // on a dedicated Thread (never the concurrency pool):
///     while running {
///         let batch = mailbox.drain()
///         if !batch.isEmpty { try connection.send(contentsOf: batch) }
///         connection.pump(timeout: 1, until: { mailbox.hasPending })
///     }
package final class CommandMailbox<Command: Sendable>: Sendable {
    private struct State {
        var commands: [Command] = []
        var closed = false
    }
    private let state = Mutex(State())
    private let pendingFlag = Atomic<Bool>(false)

    package init() {}

    /// Queues a command; false once the mailbox is closed (the owner has stopped).
    @discardableResult
    package func post(_ command: Command) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.commands.append(command)
            pendingFlag.store(true, ordering: .releasing)
            return true
        }
    }

    /// Queues several commands at once (one lock).
    @discardableResult
    package func post(contentsOf commands: some Sequence<Command>) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.commands.append(contentsOf: commands)
            pendingFlag.store(!state.commands.isEmpty, ordering: .releasing)
            return true
        }
    }

    /// Everything posted so far, oldest first; leaves the mailbox empty.
    package func drain() -> [Command] {
        state.withLock { state in
            pendingFlag.store(false, ordering: .releasing)
            var taken: [Command] = []
            swap(&taken, &state.commands)
            return taken
        }
    }

    /// Cheap (lock-free) check for the owner's pump loop.
    package var hasPending: Bool { pendingFlag.load(ordering: .acquiring) }

    /// Refuses further posts; returns what was still queued.
    package func close() -> [Command] {
        state.withLock { state in
            state.closed = true
            pendingFlag.store(false, ordering: .releasing)
            var taken: [Command] = []
            swap(&taken, &state.commands)
            return taken
        }
    }

    package var isClosed: Bool { state.withLock { $0.closed } }
}
