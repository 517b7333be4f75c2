#if canImport(Glibc)
import Glibc
#endif

/// Signals made bytes on a pipe that a loop polls beside what it reads: the handler only
/// writes the signal's number (all a signal handler may safely do), and the loop acts on it
/// itself (restores the terminal, turns echo back on, closes its streams). The chat view's
/// (SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT), a password prompt's (SIGINT) and the
/// sandbox's (SIGINT, SIGTERM, watched by its libevent loop). A signal goes to the pipe that
/// caught it last.
package final class SignalPipe {
    /// Each signal's pipe, by number (-1: none): made before any handler is installed and
    /// never freed, so the handler only reads memory.
    nonisolated(unsafe) private static let writeEnds: UnsafeMutablePointer<Int32> = {
        let ends = UnsafeMutablePointer<Int32>.allocate(capacity: Int(signalLimit))
        ends.initialize(repeating: -1, count: Int(signalLimit))
        return ends
    }()
    /// Above the highest real-time signal (64 on Linux).
    private static let signalLimit: Int32 = 65

    /// The loop polls this end.
    package let readEnd: Int32
    private let writeEnd: Int32
    private var saved: ProcessSignals.Saved?

    /// Catches `signals` (and unblocks them on this thread) until `release()`; nil when no
    /// pipe can be made (`errno` says why). `restarting`: interrupted system calls go on
    /// (`SA_RESTART`), for a loop that polls anyway.
    package init?(catching signals: [Int32], restarting: Bool) {
        guard let (readEnd, writeEnd) = WakePipe.make() else { return nil }
        self.readEnd = readEnd
        self.writeEnd = writeEnd
        let caught = signals.filter { $0 > 0 && $0 < Self.signalLimit }
        for signal in caught { Self.writeEnds[Int(signal)] = writeEnd }
        saved = ProcessSignals.set(.handled({ number in
            guard number > 0 && number < SignalPipe.signalLimit else { return }
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(SignalPipe.writeEnds[Int(number)], &byte, 1)
        }, restarting: restarting), for: caught)
        ProcessSignals.unblock(caught)
    }

    /// The signals that came since the last call.
    package func take() -> [Int32] {
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
    package var hasPending: Bool {
        var watched = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, 0) > 0
    }

    /// Puts back what the signals did before.
    package func release() {
        guard let saved else { return }
        self.saved = nil
        saved.restore()
        for signal in saved.signals where Self.writeEnds[Int(signal)] == writeEnd { Self.writeEnds[Int(signal)] = -1 }
    }

    deinit {
        release()
        close(readEnd)
        close(writeEnd)
    }
}

@available(*, unavailable)
extension SignalPipe: Sendable {}
