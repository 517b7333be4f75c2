#if canImport(Glibc)
import Glibc
#endif
import Presentation
import Threads

/// The process's standard streams and terminal, injected so that commands can
/// be run in-process by tests with captured output.
package protocol TerminalIO: AnyObject {
    func writeOut(_ text: String)
    func writeErr(_ text: String)
    var stdinIsTerminal: Bool { get }
    var stdoutIsTerminal: Bool { get }
    /// Whether progress lines on stderr would reach a person.
    var stderrIsTerminal: Bool { get }
    /// Columns of the terminal on stdout (80 when it will not say), or nil when stdout is not a terminal.
    var stdoutColumns: Int? { get }
    /// All of standard input, or nil when it cannot be read.
    func readAllInput() -> [UInt8]?
    /// Prompts on the terminal and reads one line without echo; nil on EOF.
    func readSecret(prompt: String) -> String?
    /// Prompts on the terminal and reads one line; nil on EOF.
    func readLine(prompt: String) -> String?
    /// A descriptor that takes raw bytes for stdout (a download to `-`), or nil
    /// where stdout only takes text (a test's capture).
    var standardOutputDescriptor: Int32? { get }
    /// Columns of the terminal on stderr (80 when it will not say), or nil when
    /// stderr is not a terminal: the width of a progress bar.
    var stderrColumns: Int? { get }
    /// Prompts on the terminal and reads one line, with or without echo, telling ^D from ^C.
    func ask(_ prompt: String, echo: Bool) -> PromptAnswer
    /// Rows of the terminal on stdout, or nil when it is not a terminal (or will not say):
    /// whether a transcript needs the pager.
    var stdoutRows: Int? { get }
}

extension TerminalIO {
    package var standardOutputDescriptor: Int32? { nil }
    package var stderrColumns: Int? { stderrIsTerminal ? stdoutColumns ?? 80 : nil }
    package var stdoutRows: Int? { nil }
}

/// The real terminal: fds 0, 1, 2 and /dev/tty.
package final class StandardIO: TerminalIO {
    package init() {}

    package func writeOut(_ text: String) { Self.writeAll(1, text) }
    package func writeErr(_ text: String) { Self.writeAll(2, text) }
    package var stdinIsTerminal: Bool { isatty(0) == 1 }
    package var stdoutIsTerminal: Bool { isatty(1) == 1 }
    package var stderrIsTerminal: Bool { isatty(2) == 1 }
    package var standardOutputDescriptor: Int32? { 1 }
    package var stdoutColumns: Int? { Self.columns(of: 1) }
    package var stderrColumns: Int? { Self.columns(of: 2) }
    package var stdoutRows: Int? {
        var size = winsize()
        guard isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    private static func columns(of fd: Int32) -> Int? {
        guard isatty(fd) == 1 else { return nil }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    package func readAllInput() -> [UInt8]? {
        var result = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return result }
            result.append(contentsOf: buffer[0..<n])
        }
    }

    package func readSecret(prompt: String) -> String? {
        switch ask(prompt, echo: false) {
        case .line(let line): return line
        case .endOfInput: return nil
        case .interrupted:
            // Echo is back on: now end the way ^C always ends a program.
            raise(SIGINT)
            return nil
        }
    }

    package func ask(_ prompt: String, echo: Bool) -> PromptAnswer {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return .endOfInput }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else {
            Self.writeAll(fd, prompt)
            return Self.readLine(fd: fd).map(PromptAnswer.line) ?? .endOfInput
        }
        var quiet = saved
        if !echo {
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
        }
        // ^C while the terminal does not echo: the reader waits on the signal's pipe beside
        // the terminal and restores echo itself. Without a pipe (out of descriptors) ^C
        // keeps its default effect.
        let interrupt = SignalPipe(catching: [SIGINT], restarting: false)
        // Echo off before the prompt shows, as getpass(3) does: nothing typed
        // after the prompt appears can be echoed.
        if !echo { _ = tcsetattr(fd, TCSAFLUSH, &quiet) }
        Self.writeAll(fd, prompt)
        let line = Self.readLine(fd: fd, interrupt: interrupt)
        if !echo { _ = tcsetattr(fd, TCSAFLUSH, &saved) }
        let interrupted = interrupt?.hasPending ?? false
        interrupt?.release()
        if let line { return .line(line) }
        guard interrupted else { return .endOfInput }
        Self.writeAll(fd, "\n")
        return .interrupted
    }

    package func readLine(prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        Self.writeAll(fd, prompt)
        return Self.readLine(fd: fd)
    }

    /// One line from `fd`; nil at end of input, or once `interrupt` is raised
    /// (the wait watches both, so a ^C just before the read is not missed).
    private static func readLine(fd: Int32, interrupt: SignalPipe? = nil) -> String? {
        var bytes = [UInt8]()
        var byte: UInt8 = 0
        while true {
            if let interrupt {
                var watched = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: interrupt.readEnd, events: Int16(POLLIN), revents: 0)]
                if poll(&watched, 2, -1) < 0 { if errno == EINTR { continue }; return nil }
                if watched[1].revents != 0 { return nil }
            }
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

extension TerminalIO {
    /// A diagnostic on stderr, `chatctl: ` first. It may quote the server, other users (a
    /// dialog's name) or a file name they chose, so it goes out as one line with no
    /// control sequences (docs/architecture.md, "The command line").
    func warn(_ line: String) { writeErr("chatctl: \(TerminalText.sanitize(line, newlines: .asSpaces))\n") }
}
