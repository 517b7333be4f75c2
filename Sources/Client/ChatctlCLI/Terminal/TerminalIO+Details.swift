import Presentation

extension TerminalIO {
    /// A diagnostic followed by its details, one a line and indented (the dialogs an
    /// ambiguous name matches); each line sanitized as `warn` does.
    func warn(_ line: String, details: [String]) {
        warn(line)
        for detail in details { writeErr("  \(TerminalText.sanitize(detail, newlines: .asSpaces))\n") }
    }
}
