/// Why the chat view could not take over the terminal.
struct ChatTerminalError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
