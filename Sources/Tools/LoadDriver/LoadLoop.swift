#if canImport(Glibc)
import Glibc
#endif
import SandboxNetwork

/// The driver's one libevent loop (the sandbox's own, from SandboxNetwork), on the thread
/// that runs it, and its timers.
final class LoadLoop {
    let loop: EventLoop
    private var timers: [LoopEvent] = []

    init() throws(LoadError) {
        // The loop ignores SIGPIPE for us (EventLoop).
        do { loop = try EventLoop() } catch { throw LoadError("event_base_new failed") }
    }

    /// Runs until `stop()`.
    func run() { loop.run() }

    /// Runs what is ready now without waiting (to hand the last writes to the kernel).
    func runOnce() { loop.runOnce(waiting: false) }

    /// Leaves `run()` after the callback that calls it.
    func stop() { loop.stop() }

    /// Calls `body` every `seconds` on the loop until the loop is freed.
    func every(_ seconds: Double, _ body: @escaping () -> Void) {
        guard let timer = LoopEvent(loop: loop, .repeatingTimer, action: body) else { return }
        timer.schedule(after: seconds)
        timers.append(timer)
    }
}

@available(*, unavailable) extension LoadLoop: Sendable {}
