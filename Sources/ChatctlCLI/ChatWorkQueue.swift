#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Commands for a worker thread of the chat view (the network, transfers) from the
/// terminal's thread, taken by the worker on each turn of its loop; and whether the
/// worker has ended, for a bounded wait at exit.
final class ChatWorkQueue<Command: Sendable>: Sendable {
    private let commands = Mutex<[Command]>([])
    private let finished = Mutex(false)

    func post(_ command: Command) { commands.withLock { $0.append(command) } }

    /// The worker's side: everything posted since the last call, in order.
    func take() -> [Command] { commands.withLock { commands in defer { commands.removeAll() }; return commands } }

    /// The worker's side: it has ended.
    func finish() { finished.withLock { $0 = true } }

    /// Waits at most `seconds` for the worker to end.
    func waitUntilFinished(seconds: Double) {
        let end = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while !finished.withLock({ $0 }) && ContinuousClock.now < end { usleep(10_000) }
    }
}
