/// One line on stderr that each step rewrites in place, as a login screen's status
/// label does; cleared before anything else is printed. Only used on a terminal.
final class StatusLine {
    private let io: any TerminalIO
    private var showing = false

    init(io: any TerminalIO) { self.io = io }

    /// Replaces the line with `text` (from this program, never from another user).
    func show(_ text: String) {
        io.writeErr("\r\u{1B}[K\(text)")
        showing = true
    }

    func clear() {
        guard showing else { return }
        io.writeErr("\r\u{1B}[K")
        showing = false
    }
}
