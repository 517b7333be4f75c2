#if canImport(Glibc)
import Glibc
#endif

/// The process's standard streams and terminal, injected so that commands can
/// be run in-process by tests with captured output (house style: swift-format).
public protocol TerminalIO: AnyObject {
    func writeOut(_ text: String)
    func writeErr(_ text: String)
    var stdinIsTerminal: Bool { get }
    var stdoutIsTerminal: Bool { get }
    /// Whether progress lines on stderr would reach a person.
    var stderrIsTerminal: Bool { get }
    /// All of standard input, or nil when it cannot be read.
    func readAllInput() -> [UInt8]?
    /// Prompts on the terminal and reads one line without echo; nil on EOF.
    func readSecret(prompt: String) -> String?
    /// Prompts on the terminal and reads one line; nil on EOF.
    func readLine(prompt: String) -> String?
}

/// The real terminal: fds 0, 1, 2 and /dev/tty.
public final class StandardIO: TerminalIO {
    public init() {}

    public func writeOut(_ text: String) { Self.writeAll(1, text) }
    public func writeErr(_ text: String) { Self.writeAll(2, text) }
    public var stdinIsTerminal: Bool { isatty(0) == 1 }
    public var stdoutIsTerminal: Bool { isatty(1) == 1 }
    public var stderrIsTerminal: Bool { isatty(2) == 1 }

    public func readAllInput() -> [UInt8]? {
        var result = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return result }
            result.append(contentsOf: buffer[0..<n])
        }
    }

    public func readSecret(prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        Self.writeAll(fd, prompt)
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return Self.readLine(fd: fd) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        let interrupt = InterruptFlag.catchSIGINT()
        _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        let line = Self.readLine(fd: fd, interrupt: interrupt)
        _ = tcsetattr(fd, TCSAFLUSH, &saved)
        interrupt.release()
        if line == nil && interrupt.isRaised {
            // Echo is back on: now end the way ^C always ends a program.
            Self.writeAll(fd, "\n")
            raise(SIGINT)
        }
        return line
    }

    public func readLine(prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        Self.writeAll(fd, prompt)
        return Self.readLine(fd: fd)
    }

    /// One line from `fd`; nil at end of input, or when `interrupt` was raised.
    private static func readLine(fd: Int32, interrupt: InterruptFlag? = nil) -> String? {
        var bytes = [UInt8]()
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0 {
                if errno == EINTR && !(interrupt?.isRaised ?? false) { continue }
                return nil
            }
            if n == 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}

/// ^C while the terminal does not echo: the handler only sets a flag (all a
/// signal handler may safely do); being installed without SA_RESTART, it
/// also makes the blocked read(2) return, so the reader restores echo itself.
private struct InterruptFlag {
    /// Written by the handler, read by the reader; initialised before the handler exists.
    nonisolated(unsafe) private static var raised: sig_atomic_t = 0
    private var previous = sigaction()

    static func catchSIGINT() -> InterruptFlag {
        raised = 0
        var flag = InterruptFlag()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in InterruptFlag.raised = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, &flag.previous)
        return flag
    }

    var isRaised: Bool { Self.raised != 0 }

    /// Puts back whatever SIGINT did before.
    func release() {
        var previous = previous
        sigaction(SIGINT, &previous, nil)
    }
}
