#if canImport(Glibc)
import Glibc
#endif

/// Signals for the chat view's loop (SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT):
/// the handler only writes the signal's number to a pipe the loop polls, the one
/// thing a handler may safely do; the loop then restores the terminal itself.
final class ChatSignals {
    nonisolated(unsafe) private static var handlerEnd: Int32 = -1
    let readEnd: Int32
    private let writeEnd: Int32
    static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT]
    private var previous: [Int32: sigaction] = [:]

    init() throws(ChatTerminalError) {
        (readEnd, writeEnd) = try wakePipe()
        Self.handlerEnd = writeEnd
        for signal in Self.caught {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(ChatSignals.handlerEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
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
