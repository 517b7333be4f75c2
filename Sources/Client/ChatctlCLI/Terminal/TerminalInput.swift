import ChatView

/// What the terminal hands the event loop.
enum TerminalInput: Hashable {
    case key(Key)
    case paste(String)
    /// ^L: draw everything again.
    case redraw
    /// ^Z: stop until continued.
    case suspend
    case resized
}
