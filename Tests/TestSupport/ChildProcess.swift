import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program beside the test: its output is read as it comes (a test waits for a line, not
/// for time), its exit is awaited with a deadline, and it is killed when released.
package final class ChildProcess: @unchecked Sendable {
    package enum Input {
        /// /dev/null: never a terminal, never blocks.
        case null
        /// Written in full from another thread, then closed.
        case bytes(Data)
        /// Left open for `write(_:)` and `closeInput()`.
        case pipe
    }

    package let process = Process()
    package let stdout: OutputLog
    package let stderr: OutputLog
    private let exited = Flag()
    private let inputLock = NSLock()
    private var inputFD: Int32 = -1
    private var launched = false

    /// Runs `path` (in `directory`, if given) with `childEnvironment(environment)`.
    package init(_ path: String, _ arguments: [String], environment: [String: String] = [:], input: Input = .null,
                directory: String? = nil) throws {
        ignoreSIGPIPE
        let name = URL(fileURLWithPath: path).lastPathComponent
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = childEnvironment(environment)
        let exited = self.exited
        process.terminationHandler = { _ in exited.set() }

        let out = try Self.closeOnExecPipe(), err = try Self.closeOnExecPipe()
        let childOut = FileHandle(fileDescriptor: out.write, closeOnDealloc: true)
        let childErr = FileHandle(fileDescriptor: err.write, closeOnDealloc: true)
        process.standardOutput = childOut
        process.standardError = childErr
        var childIn: FileHandle?
        switch input {
        case .null:
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        case .bytes, .pipe:
            let pipe = try Self.closeOnExecPipe()
            childIn = FileHandle(fileDescriptor: pipe.read, closeOnDealloc: true)
            process.standardInput = childIn
            inputFD = pipe.write
        }
        stdout = OutputLog(reading: out.read, name: "\(name)'s stdout")
        stderr = OutputLog(reading: err.read, name: "\(name)'s stderr")
        defer {
            // The child has its own copies now; ours would keep its output open after it exits.
            try? childOut.close()
            try? childErr.close()
            try? childIn?.close()
        }
        do {
            try process.run()
            launched = true
        } catch {
            closeInput()
            throw error
        }
        if case .bytes(let data) = input {
            Thread.detachNewThread { [self] in
                // The child may exit without reading (e.g. it rejected its arguments): EPIPE is fine.
                try? write(data)
                closeInput()
            }
        }
    }

    package var isRunning: Bool { launched && !exited.isSet }
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Writes to the child's standard input (`Input.pipe`).
    package func write(_ data: Data) throws {
        inputLock.lock()
        defer { inputLock.unlock() }
        guard inputFD >= 0 else { throw TestSupportError("the child's standard input is closed") }
        var sent = 0
        while sent < data.count {
            let n = data[data.startIndex + sent ..< data.endIndex].withUnsafeBytes { Glibc.write(inputFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw TestSupportError("write to the child's standard input: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    package func write(_ text: String) throws { try write(Data(text.utf8)) }

    /// Closes the child's standard input (end of file). Idempotent.
    package func closeInput() {
        inputLock.lock()
        defer { inputLock.unlock() }
        if inputFD >= 0 { close(inputFD) }
        inputFD = -1
    }

    /// Sends `signal` while the child runs.
    package func signal(_ signal: Int32) {
        if isRunning { kill(process.processIdentifier, signal) }
    }

    /// Whether the child exited within `timeout` seconds.
    package func waitForExit(timeout: Double) -> Bool {
        guard launched, exited.wait(timeout: timeout) else { return false }
        process.waitUntilExit()
        return true
    }

    /// Waits for the child to exit (SIGKILL after `timeout` seconds, then `timedOut`) and
    /// for the ends of its output; returns its status and everything it wrote.
    package func finish(timeout: Double) -> ProcessResult {
        let timedOut = !waitForExit(timeout: timeout)
        if timedOut {
            signal(SIGKILL)
            process.waitUntilExit()
        }
        closeInput()
        // A grandchild may hold the pipes a little longer; what is read by then is enough.
        _ = stdout.waitForEnd(timeout: 5)
        _ = stderr.waitForEnd(timeout: 5)
        return ProcessResult(status: process.terminationStatus, stdout: stdout.text, stderr: stderr.text, timedOut: timedOut)
    }

    deinit {
        if isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        closeInput()
    }

    private static func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
        // Close-on-exec: a child spawned by another test at the same moment must not
        // inherit our write end and hold the pipe open after ours has exited.
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw TestSupportError("pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }
}
