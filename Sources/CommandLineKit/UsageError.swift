public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line, e.g. "unknown option '--jsn' (did you mean '--json'?)"
    public var message: String
    /// Command path whose usage applies, e.g. ["chatctl", "login"].
    public var path: [String]
    public init(message: String, path: [String]) { self.message = message; self.path = path }
    public var description: String { message }
}
