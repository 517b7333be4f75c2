/// The event loop's end of one WebSocket (RFC 7395): what its `XMPPClientConnection`
/// writes is cut into messages (`WebSocketFraming`) and queued in the listener's
/// mailbox, which the WebSocket thread sends. Lives on the loop thread.
package final class WebSocketChannel {
    /// The listener's id for this WebSocket.
    package let id: Int
    private unowned let listener: WebSocketListener
    /// False once the WebSocket is gone or its close is requested.
    private(set) var isOpen = true

    package init(id: Int, listener: WebSocketListener) {
        self.id = id
        self.listener = listener
    }

    /// Queues what the server would write to a TCP stream, as WebSocket messages.
    package func send(_ streamText: String) {
        guard isOpen else { return }
        let messages = WebSocketFraming.messages(fromStream: streamText).map { Array($0.utf8) }
        listener.mailbox.enqueue(messages, for: id)
        listener.wake()
    }

    /// Messages the WebSocket thread has not sent yet.
    package var pendingMessages: Int { listener.mailbox.pendingMessages(for: id) }

    /// After what is queued, a close frame (1000, normal closure) with `reason`.
    package func close(reason: String) {
        guard isOpen else { return }
        isOpen = false
        listener.mailbox.requestClose(id, code: 1000, reason: reason)
        listener.wake()
    }

    /// The WebSocket went away by itself: nothing more is sent.
    package func closedByPeer() {
        isOpen = false
        listener.mailbox.forget(id)
    }
}

@available(*, unavailable) extension WebSocketChannel: Sendable {}
