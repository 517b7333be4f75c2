import Foundation

public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// A running `chatctl-sandbox` bound to loopback ports it picked; always terminated.
public final class SandboxProcess: @unchecked Sendable {
    public let process: Process
    /// The JSON config line it printed.
    public let configLine: String
    public let config: [String: Any]
    /// `configLine` written to a file, for `chatctl --config`.
    public let configPath: String
    private let directory: TemporaryDirectory
    private let stderrPipe = Pipe()
    private let stderrText = LockedData()

    /// Ports 0 let the sandbox pick; fixed ones let a test restart it in place.
    public init(arguments: [String] = [], apiPort: Int = 0, chatPort: Int = 0, startTimeout: Double = 20) throws {
        ignoreSIGPIPE
        directory = try TemporaryDirectory(prefix: "chatctl-sandbox")
        process = Process()
        process.executableURL = URL(fileURLWithPath: productPath("chatctl-sandbox"))
        process.arguments = ["--host", "127.0.0.1", "--api-port", String(apiPort), "--chat-port", String(chatPort)] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = stderrPipe
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let errSink = stderrText
        let errHandle = stderrPipe.fileHandleForReading
        DispatchQueue.global().async {
            var all = Data()
            while true {
                let chunk = errHandle.availableData
                if chunk.isEmpty { break }
                all.append(chunk)
                errSink.set(all)
            }
        }
        // Read the ready line with a deadline; never hang a test.
        let fd = out.fileHandleForReading.fileDescriptor
        var line = Data()
        let deadline = Date().addingTimeInterval(startTimeout)
        while !line.contains(0x0A) {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 || !process.isRunning && line.isEmpty {
                process.terminate()
                throw TestSupportError("sandbox did not print its config line; stderr: \(String(decoding: errSink.get(), as: UTF8.self))")
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, Int32(min(remaining, 0.2) * 1000)) > 0 {
                var buf = [UInt8](repeating: 0, count: 4096)
                let n = read(fd, &buf, buf.count)
                if n <= 0 { if !process.isRunning { continue } else { usleep(10_000) } }
                else { line.append(contentsOf: buf[0..<n]) }
            }
        }
        let first = line.split(separator: 0x0A, omittingEmptySubsequences: false)[0]
        configLine = String(decoding: first, as: UTF8.self)
        guard let obj = try JSONSerialization.jsonObject(with: Data(first)) as? [String: Any] else {
            process.terminate()
            throw TestSupportError("sandbox config line is not a JSON object: \(configLine)")
        }
        config = obj
        configPath = directory.file("config.json")
        try Data(first).write(to: URL(fileURLWithPath: configPath))
        // Keep draining stdout so the sandbox never blocks on a full pipe.
        let outHandle = out.fileHandleForReading
        DispatchQueue.global().async { _ = outHandle.readDataToEndOfFile() }
    }

    public var apiEndpoint: String { (config["endpoints"] as? [String: Any])?["api"] as? String ?? "" }
    public var chatEndpoint: String { (config["endpoints"] as? [String: Any])?["chat"] as? String ?? "" }
    public var stderr: String { String(decoding: stderrText.get(), as: UTF8.self) }

    /// SIGTERM, then SIGKILL after `grace` seconds. Returns the exit status.
    @discardableResult
    public func stop(grace: Double = 5) -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.terminate()
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { stop(grace: 2) }
}
