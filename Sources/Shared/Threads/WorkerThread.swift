#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// A thread of its own for work that blocks in C (libstrophe's event loop, a transfer, a
/// connect, libwebsockets' poll loop), never the shared concurrency pool, whose few threads
/// a blocked call would starve; and the one way either program starts a thread: the chat
/// engine's thread, its files' thread, a login's head start, a connect's watchdog (parked
/// ahead of a login), the sandbox's WebSocket thread.
///
/// Commands reach the thread through a queue under a lock; posting one wakes the thread
/// if it sleeps in `wait`; a thread that polls something else (a socket) asks `hasWork`
/// between slices. A thread that runs one long body and takes no commands is a
/// `WorkerThread<Never>`. Its owner waits for it to end with `join(seconds:)`, bounded, or
/// `join()` once it has told it to stop.
package final class WorkerThread<Command: Sendable>: Sendable {
    private let queue = Mutex<[Command]>([])
    private let posted = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let thread = Mutex<pthread_t?>(nil)

    private init() {}

    /// Starts `body` on a new thread, handing it the worker (its commands come through it).
    /// Nil when no thread can be started (out of threads): the caller does the work itself.
    package static func start(_ body: @escaping @Sendable (WorkerThread<Command>) -> Void) -> WorkerThread<Command>? {
        let worker = WorkerThread<Command>()
        guard let id = ThreadStart.spawn({
            body(worker)
            worker.ended.signal()
        }) else { return nil }
        worker.thread.withLock { $0 = id }
        return worker
    }

    // MARK: the owner's side

    package func post(_ command: Command) {
        queue.withLock { $0.append(command) }
        posted.signal()
    }

    /// Waits at most `seconds` for the thread to end; true when it has (and is joined).
    /// A thread still running then is left to end by itself (detached).
    @discardableResult
    package func join(seconds: Double) -> Bool {
        let finished = ended.wait(timeout: .now() + .milliseconds(Int(max(0, seconds) * 1000))) == .success
        if finished { ended.signal() }  // a second join returns at once
        guard let id = thread.withLock({ id -> pthread_t? in defer { id = nil }; return id }) else { return finished }
        if finished { pthread_join(id, nil) } else { pthread_detach(id) }
        return finished
    }

    /// Waits for the thread to end, however long that takes: for an owner that has told
    /// it to stop and knows it will (a poll loop woken to leave, a watch disarmed).
    package func join() {
        ended.wait()
        ended.signal()  // a second join returns at once
        if let id = thread.withLock({ id -> pthread_t? in defer { id = nil }; return id }) { pthread_join(id, nil) }
    }

    // MARK: the thread's side

    /// Everything posted since the last call, in order. The wake-ups of what it takes are
    /// taken too, so a later `wait` sleeps instead of returning once for each (a post that
    /// comes meanwhile is seen by `wait`'s look at the queue).
    package func take() -> [Command] {
        let commands = queue.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        while !commands.isEmpty && posted.wait(timeout: .now()) == .success {}
        return commands
    }

    /// Whether commands wait (cheap: for a loop that polls something else between slices).
    package var hasWork: Bool { queue.withLock { !$0.isEmpty } }

    /// Sleeps until a command is posted or `seconds` pass (nil: until a command).
    package func wait(seconds: Double? = nil) {
        guard !hasWork else { return }
        if let seconds {
            _ = posted.wait(timeout: .now() + .milliseconds(Int(max(0, seconds) * 1000)))
        } else {
            posted.wait()
        }
    }
}

/// `pthread_create` for a closure (not generic: a C function pointer cannot capture a generic context).
private final class ThreadStart: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }

    /// Starts `run` on a new joinable thread, retained until that thread takes it; nil when none can be made.
    static func spawn(_ run: @escaping @Sendable () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(ThreadStart(run)).toOpaque()
        var id = pthread_t()
        let made = pthread_create(&id, nil, { argument in
            Unmanaged<ThreadStart>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, context)
        guard made == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            return nil
        }
        return id
    }
}

/// Hands a value that is not `Sendable` to the one thread that uses it from then on
/// (a cache connection, a session made on the owner's thread for a worker).
package struct Handover<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
