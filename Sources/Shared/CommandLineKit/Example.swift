/// One example of a command's use, as `--help` and the man page show it: what
/// it does in one line, then the command line itself, ready to copy.
package struct Example: Sendable, Equatable {
    /// What the command does, e.g. "Send bob one line".
    package var comment: String
    /// The whole command line, e.g. `chatctl send @bob 'lunch at noon?'`.
    package var command: String

    package init(_ comment: String, _ command: String) {
        self.comment = comment; self.command = command
    }
}
