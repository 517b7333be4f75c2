/// A bad invocation, reported with the usage line (exit 2).
struct SandboxUsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
