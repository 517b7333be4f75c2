internal import CEvent
#if canImport(Glibc)
import Glibc
#endif

/// The driver's one libevent loop, on the thread that runs it, and its timers.
final class LoadLoop {
    let base: OpaquePointer   // struct event_base*
    private var timers: [LoadTimer] = []

    init() throws(LoadError) {
        // A peer that vanishes mid-write must cost an EPIPE, not the process.
        signal(SIGPIPE, SIG_IGN)
        guard let base = event_base_new() else { throw LoadError("event_base_new failed") }
        self.base = base
    }

    deinit {
        timers = []
        event_base_free(base)
    }

    /// Runs until `stop()`.
    func run() { event_base_dispatch(base) }

    /// Runs what is ready now without waiting (to hand the last writes to the kernel).
    func runOnce() { event_base_loop(base, Int32(EVLOOP_NONBLOCK)) }

    /// Leaves `run()` after the callback that calls it.
    func stop() { event_base_loopbreak(base) }

    /// Calls `body` every `seconds` on the loop until the loop is freed.
    func every(_ seconds: Double, _ body: @escaping () -> Void) {
        timers.append(LoadTimer(base: base, seconds: seconds, body: body))
    }
}

/// A persistent libevent timer calling a closure.
private final class LoadTimer {
    private var event: OpaquePointer?
    private let body: () -> Void

    init(base: OpaquePointer, seconds: Double, body: @escaping () -> Void) {
        self.body = body
        event = event_new(base, -1, Int16(EV_PERSIST), { _, _, ctx in
            Unmanaged<LoadTimer>.fromOpaque(ctx!).takeUnretainedValue().body()
        }, Unmanaged.passUnretained(self).toOpaque())
        var interval = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        if let event { event_add(event, &interval) }
    }

    deinit { if let event { event_free(event) } }
}
