import SandboxNetwork
import SandboxREST
import SandboxXMPP

/// Dated push events (docs/protocol.md §14) on the loop: one timer at the next event's date,
/// armed at start and whenever the API changes an event. Loop thread only.
final class PushSchedule {
    private let api: SandboxAPI
    private let turn: TurnCommit
    private var timer: LoopEvent?

    init(loop: EventLoop, api: SandboxAPI, turn: TurnCommit) {
        self.api = api
        self.turn = turn
        timer = LoopEvent(loop: loop, .timer) { [unowned self] in self.deliver() }
        api.pushScheduleChanged = { [unowned self] in self.arm(self.api.nextPushDue()) }
    }

    deinit { api.pushScheduleChanged = {} }

    /// Delivers what is due (at start, what fell due while the sandbox was stopped) and waits
    /// for the next. Chat's writes of this turn are committed first, as before a REST request.
    func deliver() {
        turn.finish()
        arm(api.deliverDueEvents())
    }

    private func arm(_ next: Int?) {
        guard let next else { return }
        timer?.schedule(after: api.seconds(until: next))
    }
}

@available(*, unavailable) extension PushSchedule: Sendable {}
