import ChatctlCLI
import Testing

/// A terminal for in-process runs: captures stdout and stderr, feeds stdin.
final class CapturedIO: TerminalIO {
    var out = ""
    var err = ""
    var input: [UInt8]
    var terminal: Bool
    var secretAnswers: [String] = []
    var prompts: [String] = []

    init(input: String = "", terminal: Bool = false) {
        self.input = Array(input.utf8); self.terminal = terminal
    }

    func writeOut(_ text: String) { out += text }
    func writeErr(_ text: String) { err += text }
    var stdinIsTerminal: Bool { terminal }
    var stdoutIsTerminal: Bool { false }
    var stderrIsTerminal: Bool { false }
    var stdoutColumns: Int? { nil }
    func readAllInput() -> [UInt8]? { defer { input = [] }; return input }
    func readSecret(prompt: String) -> String? {
        prompts.append(prompt)
        return secretAnswers.isEmpty ? nil : secretAnswers.removeFirst()
    }
    func readLine(prompt: String) -> String? { prompts.append(prompt); return nil }
}

/// Runs chatctl in-process with an environment that points nowhere real.
func runChatctl(_ arguments: [String], io: CapturedIO = CapturedIO(), environment: [String: String] = [:]) -> (Int32, CapturedIO) {
    var env = ["HOME": "/nonexistent-home"]
    for (k, v) in environment { env[k] = v }
    let status = Chatctl.run(arguments: arguments, environment: env, io: io)
    return (status, io)
}

/// Expects a usage error: exit 2, nothing on stdout, `firstLine` then the usage on stderr.
func expectUsageError(_ arguments: [String], firstLine: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let (status, io) = runChatctl(arguments)
    #expect(status == 2, sourceLocation: sourceLocation)
    #expect(io.out.isEmpty, sourceLocation: sourceLocation)
    let lines = io.err.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first.map(String.init) == firstLine, sourceLocation: sourceLocation)
    #expect(lines.count >= 2 && lines[1].hasPrefix("usage: chatctl"), sourceLocation: sourceLocation)
}
