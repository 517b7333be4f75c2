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
        let haveTermios = tcgetattr(fd, &saved) == 0
        if haveTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            EchoGuard.install(fd: fd, saved: saved)
            _ = tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        let line = Self.readLine(fd: fd)
        if haveTermios {
            var restore = saved
            _ = tcsetattr(fd, TCSAFLUSH, &restore)
            EchoGuard.clear()
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

    private static func readLine(fd: Int32) -> String? {
        var bytes = [UInt8]()
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0 { if errno == EINTR { continue }; return nil }
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

/// Restores terminal echo if ^C arrives during a password prompt, then exits 130.
private enum EchoGuard {
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var saved = termios()

    static func install(fd: Int32, saved: termios) {
        EchoGuard.saved = saved
        EchoGuard.fd = fd
        signal(SIGINT) { _ in
            if EchoGuard.fd >= 0 { _ = tcsetattr(EchoGuard.fd, TCSAFLUSH, &EchoGuard.saved) }
            let newline: [UInt8] = [10]
            _ = newline.withUnsafeBytes { write(2, $0.baseAddress, 1) }
            _exit(130)
        }
    }

    static func clear() {
        fd = -1
        signal(SIGINT, SIG_DFL)
    }
}
