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

/// Hands a value that is not `Sendable` to the one thread that uses it from then on.
struct UncheckedTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A thread of its own for a loop that blocks (libstrophe's, a transfer): never the shared pool.
enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { argument in
            Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, context.toOpaque()) == 0 else {
            // Out of threads: run it here rather than not at all.
            context.takeRetainedValue().run()
            return
        }
        pthread_detach(thread)
    }
}
