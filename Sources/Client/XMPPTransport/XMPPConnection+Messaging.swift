import ChatIdentifiers

/// Chat messaging on top of the session: send and track messages, markers and chat
/// states. No C here; everything goes through `sendRaw`.
extension XMPPConnection {
    /// A fresh ObjectId for a message this connection will send.
    package func makeMessageID() -> ObjectID { idGenerator.next() }

    /// Queues `message` and returns its XEP-0198 sequence number. Queued is not sent:
    /// it is delivered when `isAcknowledged(sequence)` turns true, which `onEvent`
    /// reports as `.delivered([message.id, …])`. Throws code `.invalidMessage` (e.g. a
    /// control character XML cannot carry) or `.disconnected`.
    @discardableResult
    package func send(_ message: OutgoingChatMessage) throws(XMPPError) -> UInt32 {
        if let problem = message.validationProblem {
            throw XMPPError(code: .invalidMessage, endpoint: endpointDescription, detail: problem)
        }
        return try sendStanza(message.xml, messageID: message.id)
    }

    /// Queues several messages at once, coalesced into few large writes (what a bulk
    /// sender should use: fewer TLS records for both ends) that end with the request for
    /// their ack (`<r/>`, one per batch). All are validated first; if one is invalid,
    /// none is sent. Returns the sequence numbers, in order.
    @discardableResult
    package func send(contentsOf messages: [OutgoingChatMessage]) throws(XMPPError) -> [UInt32] {
        for message in messages {
            if let problem = message.validationProblem {
                throw XMPPError(code: .invalidMessage, endpoint: endpointDescription, detail: "message \(message.id): \(problem)")
            }
        }
        guard isConnected, let sequences = sendRawBatch(messages.map { ($0.xml, $0.id) }, askingForAcknowledgement: true) else {
            throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "")
        }
        return sequences
    }

    /// Sends a XEP-0333 marker (`received`/`displayed`) to the original sender.
    /// Markers are not tracked for delivery.
    @discardableResult
    package func sendMarker(_ marker: ChatMarker) throws(XMPPError) -> UInt32 {
        try sendStanza(marker.xml(id: idGenerator.next()), messageID: nil)
    }

    /// Sends several markers as one write that ends with the request for their
    /// ack (XEP-0198), so a burst of messages costs one write back, not one per
    /// message. Each marker gets its own stanza id. Returns the sequence numbers.
    @discardableResult
    package func sendMarkers(_ markers: [ChatMarker]) throws(XMPPError) -> [UInt32] {
        guard !markers.isEmpty else { return [] }
        let stanzas = markers.map { (xml: $0.xml(id: idGenerator.next()), messageID: ObjectID?.none) }
        guard isConnected, let sequences = sendRawBatch(stanzas, askingForAcknowledgement: true) else {
            throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "")
        }
        return sequences
    }

    /// Queues a system notification (a dialog announcement) and returns its sequence
    /// number; `waitForAcknowledgement` tells when the server has it. Throws code
    /// `.invalidMessage` or `.disconnected`.
    @discardableResult
    package func send(_ notification: OutgoingSystemNotification) throws(XMPPError) -> UInt32 {
        if let problem = notification.validationProblem {
            throw XMPPError(code: .invalidMessage, endpoint: endpointDescription, detail: problem)
        }
        return try sendStanza(notification.xml, messageID: nil)
    }

    /// Sends a XEP-0085 chat state (typing notification); not tracked.
    @discardableResult
    package func sendChatState(_ chatState: ChatState, to: ChatJID, kind: OutgoingChatMessage.Kind = .chat,
                              dialogID: DialogID? = nil) throws(XMPPError) -> UInt32 {
        try sendStanza(chatState.stanza(kind: kind, to: to, dialogID: dialogID).xml(), messageID: nil)
    }

    /// Whether the server has acknowledged the stanza with this sequence number.
    package func isAcknowledged(_ sequence: UInt32) -> Bool { tracker.isAcknowledged(sequence) }

    /// How many stanzas the server has acknowledged in this session (its last `h`).
    package var acknowledgedCount: UInt32 { tracker.ledger.acknowledgedCount }

    /// Messages sent in this (or the lost) session and not acknowledged, oldest first.
    /// Kept after a loss until the next `connect`.
    package var unacknowledgedMessageIDs: [ObjectID] { tracker.unacknowledged }
}
