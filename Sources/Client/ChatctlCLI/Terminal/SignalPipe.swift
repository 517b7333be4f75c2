#if canImport(Glibc)
import Glibc
#endif
import Diagnostics

/// Signals made bytes on a pipe that a loop polls beside what it reads: the handler only
/// writes the signal's number (all a signal handler may safely do), and the loop acts on it
/// itself (restores the terminal, turns echo back on). One at a time in a process: the
/// chat view's (SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT), or a password prompt's (SIGINT).
final class SignalPipe {
    /// The handler's end; set before the handlers are installed.
    nonisolated(unsafe) private static var handlerEnd: Int32 = -1
    /// The loop polls this end.
    let readEnd: Int32
    private let writeEnd: Int32
    private var previous: [Int32: sigaction] = [:]

    /// `restarting`: interrupted system calls go on (`SA_RESTART`), for a loop that polls anyway.
    init(catching signals: [Int32], restarting: Bool) throws(Failure) {
        (readEnd, writeEnd) = try wakePipe()
        Self.handlerEnd = writeEnd
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.handlerEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = restarting ? SA_RESTART : 0
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous[signal] = old
        }
    }

    /// The signals that came since the last call.
    func take() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while true {
            let n = read(readEnd, &buffer, buffer.count)
            if n <= 0 { break }
            signals += buffer.prefix(n).map { Int32($0) }
        }
        return signals
    }

    /// Whether a signal came and waits to be taken.
    var hasPending: Bool {
        var watched = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, 0) > 0
    }

    /// Puts back what the signals did before.
    func release() {
        for (signal, action) in previous {
            var action = action
            sigaction(signal, &action, nil)
        }
        previous.removeAll()
    }

    deinit {
        release()
        close(readEnd)
        close(writeEnd)
    }
}

/// A pipe for wake-ups: both ends non-blocking (a full pipe already holds one) and closed on exec.
func wakePipe() throws(Failure) -> (Int32, Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw Failure(.failure, "cannot make a pipe: \(String(cString: strerror(errno)))") }
    for end in ends {
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        _ = fcntl(end, F_SETFL, O_NONBLOCK)
    }
    return (ends[0], ends[1])
}
