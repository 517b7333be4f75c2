import CommandLineKit

/// A chatctl-sandbox command: its declaration and what it does; returns the exit status.
protocol SandboxCommand: ParsableCommand {
    func run() throws(SandboxUsageError) -> Int32
}

/// A bad invocation, reported with the usage line (exit 2).
struct SandboxUsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
