import CommandLineKit

/// A chatctl-sandbox command: its declaration and what it does; returns the exit status.
protocol SandboxCommand: ParsableCommand {
    func run() throws(SandboxUsageError) -> Int32
}
