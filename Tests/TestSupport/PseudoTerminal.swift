import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program on a terminal of its own (a pseudo-terminal the test drives): it can prompt
/// on /dev/tty, and the test waits for the prompt and for echo to be off before typing.
public final class PseudoTerminal: @unchecked Sendable {
    /// Everything the program wrote to the terminal (with the terminal's CR LF line ends).
    public let output: OutputLog
    private let master: Int32
    private let slavePath: String
    private let process = Process()
    private let exited = Flag()
    private var launched = false

    /// Starts `path` in a new session whose controlling terminal is the pseudo-terminal
    /// (`setsid --ctty`), with it as stdin, stdout and stderr.
    public init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        ignoreSIGPIPE
        let master = PTYCalls.openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0, PTYCalls.grantpt(master) == 0, PTYCalls.unlockpt(master) == 0, let name = PTYCalls.ptsname(master) else {
            throw TestSupportError("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        self.master = master
        slavePath = String(cString: name)
        let slave = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { close(master); throw TestSupportError("open \(slavePath): \(String(cString: strerror(errno)))") }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        defer { try? terminal.close() }  // the child has its own; ours would hide its exit from the reader
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["--ctty", "--wait", path] + arguments
        process.environment = childEnvironment(environment)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        let exited = self.exited
        process.terminationHandler = { _ in exited.set() }
        // Reads the master through a duplicate: the log closes its fd at the end, we close ours in deinit.
        output = OutputLog(reading: fcntl(master, F_DUPFD_CLOEXEC, 0), name: "the terminal")
        try process.run()
        launched = true
    }

    /// Types `text` (a newline ends the line).
    public func type(_ text: String) throws {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw TestSupportError("typing on the terminal: \(String(cString: strerror(errno)))") }
    }

    /// Whether the terminal echoes what is typed (a program turns it off to read a password).
    public func echoes() throws -> Bool {
        let fd = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw TestSupportError("open \(slavePath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw TestSupportError("tcgetattr: \(String(cString: strerror(errno)))") }
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    public var terminationStatus: Int32 { process.terminationStatus }

    /// Whether the program exited within `timeout` seconds.
    public func waitForExit(timeout: Double) -> Bool {
        guard launched, exited.wait(timeout: timeout) else { return false }
        process.waitUntilExit()
        return true
    }

    deinit {
        if launched && !exited.isSet {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        close(master)
    }
}

/// glibc declares these only for _XOPEN_SOURCE, which Swift's Glibc module does not define:
/// the same libc functions, looked up by name.
private enum PTYCalls {
    typealias OnFD = @convention(c) (Int32) -> Int32
    static let openpt = function("posix_openpt", as: OnFD.self)
    static let grantpt = function("grantpt", as: OnFD.self)
    static let unlockpt = function("unlockpt", as: OnFD.self)
    static let ptsname = function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

    private static func function<T>(_ name: String, as type: T.Type) -> T {
        guard let symbol = dlsym(nil, name) else { preconditionFailure("libc has no \(name)") }
        return unsafeBitCast(symbol, to: type)
    }
}
