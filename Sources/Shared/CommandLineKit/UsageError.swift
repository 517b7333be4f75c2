package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line, e.g. "unknown option '--jsn' (did you mean '--json'?)"
    package var message: String
    /// Command path whose usage applies, e.g. ["chatctl", "login"].
    package var path: [String]
    package init(message: String, path: [String]) { self.message = message; self.path = path }
    package var description: String { message }
}
