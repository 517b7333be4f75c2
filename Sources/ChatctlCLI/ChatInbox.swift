#if canImport(Glibc)
import Glibc
#endif
import ChatView
import Synchronization

/// Events for the chat view's one event loop from the other threads (the network,
/// transfers): queued under a lock, and a byte on a pipe that the loop polls beside
/// the terminal wakes it. The loop alone draws.
final class ChatInbox: Sendable {
    private let queue = Mutex<[ScreenEvent]>([])
    /// The loop polls this end.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(ChatTerminalError) {
        (readEnd, writeEnd) = try wakePipe()
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func post(_ event: ScreenEvent) { post([event]) }

    func post(_ events: [ScreenEvent]) {
        guard !events.isEmpty else { return }
        queue.withLock { $0.append(contentsOf: events) }
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up: nothing lost.
        _ = write(writeEnd, &byte, 1)
    }

    /// Everything posted so far, in order; the wake-up bytes are drained.
    func take() -> [ScreenEvent] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readEnd, &buffer, buffer.count) > 0 {}
        return queue.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
    }
}

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

/// A pipe for wake-ups: both ends non-blocking (a full pipe already holds one) and closed on exec.
private func wakePipe() throws(ChatTerminalError) -> (Int32, Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw ChatTerminalError("cannot make a pipe: \(String(cString: strerror(errno)))") }
    for end in ends {
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        _ = fcntl(end, F_SETFL, O_NONBLOCK)
    }
    return (ends[0], ends[1])
}
