/// Keep-alive (XEP-0199): after a silence, ping; with no answer at all, the
/// socket may be half-open and never report an error, so give it up. The timing
/// is `KeepAliveSchedule`'s, inside `ChatSessionState`; this file acts on it.
extension XMPPConnection {
    /// From now on, per the connect options.
    func startKeepAlive() {
        _ = state.handle(.keepAliveStarted(interval: options.keepAliveInterval, timeout: options.keepAliveTimeout, now: monotonicNow))
    }

    /// After each turn of the event loop.
    func checkKeepAlive() {
        guard state.phase == .connected else { return }
        perform(state.handle(.tick(now: monotonicNow)))
    }

    /// Closes the silent socket and reports the loss like any other.
    func abortSilentConnection(timeout: Double) {
        abortConnection()
        let error = XMPPError(kind: .timedOut, endpoint: endpointDescription,
                              detail: "no answer to a keep-alive ping within \(Self.format(timeout)) s")
        lastFailure = error
        emit(.connectionLost(error, unacknowledged: tracker.unacknowledged))
    }
}
