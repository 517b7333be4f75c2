// libevent's `struct event`: timers, a call after the turn, a readable descriptor.
internal import CEvent
#if canImport(Glibc)
import Glibc
#endif

/// One libevent event and the closure it runs on the loop thread. Freed with its owner.
package final class LoopEvent {
    package enum Trigger {
        /// Once, `schedule(after:)` after it is scheduled (again, each time).
        case timer
        /// Every `schedule(after:)` period, until freed.
        case repeatingTimer
        /// Once per `activate()`, after the callbacks already ready in this turn of the loop,
        /// before the loop waits for the network again.
        case afterTurn
        /// Each time `descriptor` is readable (`persistent`), or the first time; watched from the start.
        case readable(descriptor: Int32, persistent: Bool)
    }

    private let loop: EventLoop
    private var event: OpaquePointer?   // struct event*
    private let action: () -> Void

    /// nil when libevent cannot make the event (out of memory).
    package init?(loop: EventLoop, _ trigger: Trigger, action: @escaping () -> Void) {
        self.loop = loop
        self.action = action
        let (descriptor, what): (Int32, Int32) = switch trigger {
        case .timer, .afterTurn: (-1, 0)
        case .repeatingTimer: (-1, Int32(EV_PERSIST))
        case .readable(let descriptor, let persistent): (descriptor, Int32(EV_READ) | (persistent ? Int32(EV_PERSIST) : 0))
        }
        guard let event = event_new(loop.base, descriptor, Int16(what), { _, _, context in
            let event = Unmanaged<LoopEvent>.fromOpaque(context!).takeUnretainedValue()
            withExtendedLifetime(event) { event.action() }
        }, Unmanaged.passUnretained(self).toOpaque()) else { return nil }
        self.event = event
        switch trigger {
        case .readable: event_add(event, nil)
        case .timer, .repeatingTimer, .afterTurn: break
        }
    }

    deinit { cancel() }

    /// A timer: fires `seconds` from now (at least a millisecond), replacing an earlier schedule.
    package func schedule(after seconds: Double) {
        guard let event else { return }
        let clamped = max(0.001, seconds)
        var period = timeval(tv_sec: Int(clamped), tv_usec: Int((clamped - clamped.rounded(.down)) * 1_000_000))
        event_add(event, &period)
    }

    /// `.afterTurn`: runs the action once the callbacks of this turn are done.
    package func activate() {
        guard let event else { return }
        event_active(event, Int32(EV_TIMEOUT), 0)
    }

    /// Frees the event now: its action never runs again. Idempotent.
    package func cancel() {
        if let event { event_free(event) }
        event = nil
    }
}

@available(*, unavailable) extension LoopEvent: Sendable {}
