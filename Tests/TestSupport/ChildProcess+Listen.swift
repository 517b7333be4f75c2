extension ChildProcess {
    /// Waits for `chatctl listen`'s ready line ("chatctl: listening to N dialogs" on stderr):
    /// from then on it is connected and joined, so it hears every message sent.
    @discardableResult
    package func waitUntilListening(timeout: Double = 30) throws -> String {
        try stderr.waitForLine("listen's ready line", timeout: timeout) { $0.hasPrefix("chatctl: listening to ") }
    }
}
