/// libstrophe's log: every line is evidence for a connect failure (libstrophe 0.12
/// reports most failures only there), and with --verbose it is shown, redacted.
extension XMPPConnection {
    /// Debug lines carry every stanza; once connected, only --verbose wants them,
    /// so the callback skips them before copying any text.
    var wantsDebugLog: Bool { verboseLog != nil || state.phase != .connected }

    func handleLog(area: String, message: String, isError: Bool) {
        evidence.observe(area: area, message: message, isError: isError)
        if let verboseLog, let line = StropheLogRedactor.sanitize(area: area, message: message, secrets: secrets) {
            verboseLog(line)
        }
    }
}
