#if canImport(Glibc)
import Glibc
#endif
import ChatView
import Diagnostics
import Synchronization
import Threads

/// Events for the chat view's one event loop from the other threads (the network,
/// transfers): queued under a lock, and a byte on a pipe that the loop polls beside
/// the terminal wakes it. The loop alone draws.
final class ChatInbox: Sendable {
    private let queue = Mutex<[ScreenEvent]>([])
    /// The loop polls this end.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(Failure) {
        guard let (readEnd, writeEnd) = WakePipe.make() else {
            throw Failure(.failure, "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        self.readEnd = readEnd
        self.writeEnd = writeEnd
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
