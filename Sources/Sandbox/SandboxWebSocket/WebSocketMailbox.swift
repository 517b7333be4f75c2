#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import SandboxLogging

/// What the WebSocket thread tells the event loop about one connection.
package enum WebSocketEvent: Sendable, Equatable {
    /// A client upgraded with the `xmpp` subprotocol.
    case opened(id: Int, peer: String)
    /// One whole text message (RFC 7395: one XML element).
    case message(id: Int, [UInt8])
    /// A message over the size limit arrived; its bytes were dropped.
    case oversized(id: Int)
    /// The WebSocket is gone (closed by either side, or lost); `reason` is for the log.
    case closed(id: Int, reason: String)
}

/// The two queues between the sandbox's event loop and the libwebsockets thread
/// (`WebSocketListener`): events one way, messages and close requests the other.
/// The loop learns of new events from a byte on a pipe it watches; the WebSocket
/// thread learns of new output from `lws_cancel_service`, which the listener calls.
package final class WebSocketMailbox: Sendable {
    /// What the WebSocket thread should write next for one connection.
    enum Output: Equatable {
        case message([UInt8])
        case close(code: UInt16, reason: String)
        case nothing
    }

    private struct Outbound {
        var messages: [[UInt8]] = []
        var close: (code: UInt16, reason: String)?
    }

    private struct State {
        var events: [WebSocketEvent] = []
        var outbound: [Int: Outbound] = [:]
        var stopping = false
    }

    private let state = Mutex(State())
    /// The loop watches this end; one byte means "events are waiting".
    package let loopWakeReader: Int32
    private let loopWakeWriter: Int32

    init() throws(SandboxFailure) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw SandboxFailure("cannot create the WebSocket wake-up pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        loopWakeReader = fds[0]
        loopWakeWriter = fds[1]
    }

    deinit {
        close(loopWakeReader)
        close(loopWakeWriter)
    }

    // MARK: the WebSocket thread

    func post(_ event: WebSocketEvent) {
        let wasEmpty = state.withLock { state in
            defer { state.events.append(event) }
            return state.events.isEmpty
        }
        if wasEmpty {
            var byte: UInt8 = 1
            _ = write(loopWakeWriter, &byte, 1)  // a full pipe already says the same
        }
    }

    /// Connections with something to write.
    func connectionsWithOutput() -> [Int] {
        state.withLock { state in
            state.outbound.compactMap { id, out in out.messages.isEmpty && out.close == nil ? nil : id }
        }
    }

    /// Takes the next thing to write for `id`: messages first, then the close.
    func nextOutput(for id: Int) -> (output: Output, more: Bool) {
        state.withLock { state in
            guard var out = state.outbound[id] else { return (.nothing, false) }
            if !out.messages.isEmpty {
                let first = out.messages.removeFirst()
                state.outbound[id] = out.messages.isEmpty && out.close == nil ? nil : out
                return (.message(first), !out.messages.isEmpty || out.close != nil)
            }
            if let close = out.close {
                state.outbound[id] = nil
                return (.close(code: close.code, reason: close.reason), false)
            }
            state.outbound[id] = nil
            return (.nothing, false)
        }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    // MARK: the event loop

    /// Everything posted so far, oldest first (and the wake-up bytes drained).
    package func takeEvents() -> [WebSocketEvent] {
        var sink = [UInt8](repeating: 0, count: 64)
        while read(loopWakeReader, &sink, sink.count) > 0 {}
        return state.withLock { state in
            defer { state.events = [] }
            return state.events
        }
    }

    func enqueue(_ messages: [[UInt8]], for id: Int) {
        guard !messages.isEmpty else { return }
        state.withLock { state in
            guard state.outbound[id]?.close == nil else { return }  // nothing after a close
            state.outbound[id, default: Outbound()].messages.append(contentsOf: messages)
        }
    }

    /// After the queued messages, close with `code` (RFC 6455 §7.4) and `reason`.
    func requestClose(_ id: Int, code: UInt16, reason: String) {
        state.withLock { state in
            guard state.outbound[id]?.close == nil else { return }
            state.outbound[id, default: Outbound()].close = (code, reason)
        }
    }

    /// Messages not yet handed to libwebsockets.
    func pendingMessages(for id: Int) -> Int {
        state.withLock { $0.outbound[id]?.messages.count ?? 0 }
    }

    /// Drops whatever is queued for a connection that is gone.
    func forget(_ id: Int) {
        state.withLock { _ = $0.outbound.removeValue(forKey: id) }
    }

    func beginStopping() {
        state.withLock { $0.stopping = true }
    }
}
