// The sandbox's one libevent loop (and the load driver's): every event, listener and
// connection of this module runs on it, on the thread that runs it.
internal import CEvent
import SandboxLogging
import Threads

/// Owns an `event_base`. Everything made on it holds it, so it is freed after them.
/// Loop thread only (create it there, or before the loop runs).
package final class EventLoop {
    let base: OpaquePointer   // struct event_base*

    package init() throws(SandboxFailure) {
        // Its connections write to peers that may vanish mid-write, in whatever process runs
        // it (the sandbox, the bench's driver, a test): each such write must cost an EPIPE.
        ProcessSignals.ignoreBrokenPipes()
        guard let base = event_base_new() else { throw SandboxFailure("cannot create the event loop") }
        self.base = base
    }

    deinit { event_base_free(base) }

    /// Runs until `stop()` (or until nothing is left to wait for).
    package func run() { event_base_dispatch(base) }

    /// One turn: what is ready (waiting for something to be, with `waiting`).
    package func runOnce(waiting: Bool = true) {
        event_base_loop(base, Int32(waiting ? EVLOOP_ONCE : EVLOOP_NONBLOCK))
    }

    /// Leaves `run()` after the callback that calls it.
    package func stop() { event_base_loopbreak(base) }
}

@available(*, unavailable) extension EventLoop: Sendable {}
