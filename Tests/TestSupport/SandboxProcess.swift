import Foundation

/// A running `chatctl-sandbox` bound to loopback ports it picked; always terminated.
package final class SandboxProcess: @unchecked Sendable {
    package let process: Process
    /// The JSON config line it printed.
    package let configLine: String
    package let config: [String: Any]
    /// `configLine` written to a file, for `chatctl --config`.
    package let configPath: String
    private let directory: TemporaryDirectory
    private let child: ChildProcess

    /// Ports 0 let the sandbox pick; fixed ones let a test restart it in place.
    /// `environment` is added to the child's (e.g. a `TMPDIR` of the test's own).
    /// `launch` runs it inside a limit (a file-size limit, say: `Confinement`); its pid stays the sandbox's (exec).
    package init(arguments: [String] = [], apiPort: Int = 0, chatPort: Int = 0, environment: [String: String] = [:],
                startTimeout: Double = 20, launch: ((String, [String]) -> (path: String, arguments: [String]))? = nil) throws {
        directory = try TemporaryDirectory(prefix: "chatctl-sandbox")
        let program = productPath("chatctl-sandbox")
        let given = ["--host", "127.0.0.1", "--api-port", String(apiPort), "--chat-port", String(chatPort)] + arguments
        let (path, all) = launch?(program, given) ?? (program, given)
        child = try ChildProcess(path, all, environment: environment)
        process = child.process
        // The ready signal: its config line on stdout.
        let first: String
        do {
            first = try child.stdout.waitForLine("its config line", timeout: startTimeout) { _ in true }
        } catch {
            child.signal(SIGKILL)
            throw TestSupportError("sandbox did not print its config line: \(error)\nstderr: \(child.stderr.text)")
        }
        configLine = first
        guard let obj = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any] else {
            child.signal(SIGKILL)
            throw TestSupportError("sandbox config line is not a JSON object: \(configLine)")
        }
        config = obj
        configPath = directory.file("config.json")
        try Data(first.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    package var apiEndpoint: String { (config["endpoints"] as? [String: Any])?["api"] as? String ?? "" }
    package var chatEndpoint: String { (config["endpoints"] as? [String: Any])?["chat"] as? String ?? "" }
    package var stderr: String { child.stderr.text }

    /// Waits for a line of the sandbox's log (stderr) that contains `needle`, e.g. the
    /// `xmpp #N: bound JID/resource` it writes once a chat client may receive messages.
    @discardableResult
    package func waitForLog(containing needle: String, timeout: Double = 20) throws -> String {
        try child.stderr.waitForLine(containing: needle, timeout: timeout)
    }

    /// Whether the sandbox exited within `timeout` seconds (after a signal, say).
    package func waitForExit(timeout: Double) -> Bool { child.waitForExit(timeout: timeout) }

    /// The sandbox's process id.
    package var pid: Int32 { process.processIdentifier }

    /// Its resident memory in KiB (VmRSS in /proc/PID/status); nil once it has gone.
    package var residentKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// SIGKILL, as a crash would end it: nothing of its own shutdown runs. Waits for the exit.
    package func crash() {
        guard child.isRunning else { return }
        child.signal(SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then SIGKILL after `grace` seconds. Returns the exit status.
    @discardableResult
    package func stop(grace: Double = 5) -> Int32 {
        guard child.isRunning else {
            process.waitUntilExit()
            return process.terminationStatus
        }
        child.signal(SIGTERM)
        if !child.waitForExit(timeout: grace) {
            child.signal(SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit { stop(grace: 2) }
}
