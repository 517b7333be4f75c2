import Synchronization

/// Lets another thread end a connect at once (a login whose REST part failed drops its chat
/// head start): the wait for credentials, the event loop, and libstrophe's TLS handshake,
/// which only a hang-up ends (through the attempt's `ConnectWatchdog`).
package final class ChatConnectCancellation: Sendable {
    private struct State {
        var cancelled = false
        var watchdog: ConnectWatchdog?
    }
    private let state = Mutex(State())

    package init() {}

    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    package func cancel() {
        let watchdog = state.withLock { state -> ConnectWatchdog? in
            state.cancelled = true
            return state.watchdog
        }
        watchdog?.hangUpNow()
    }

    /// The current attempt's watchdog, for `cancel` to hang up on; nil once TLS is set up.
    func watch(_ watchdog: ConnectWatchdog?) {
        let late = state.withLock { state -> Bool in
            state.watchdog = watchdog
            return state.cancelled
        }
        if late { watchdog?.hangUpNow() }
    }

    /// What a cancelled connect throws (nobody is waiting for it by then).
    static func error(endpoint: String) -> XMPPError {
        XMPPError(kind: .disconnected, endpoint: endpoint, detail: "connect cancelled")
    }
}
