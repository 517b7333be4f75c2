/// Chat messaging on top of the session: send and track messages, markers, chat
/// states, MUC join/leave. No C here; everything goes through `sendRaw`.
extension XMPPConnection {
    /// A fresh ObjectId for a message this connection will send.
    public func makeMessageID() -> ObjectID { idGenerator.next() }

    /// Queues `message` and returns its XEP-0198 sequence number. Queued is not sent:
    /// it is delivered when `isAcknowledged(sequence)` turns true, which `onEvent`
    /// reports as `.delivered([message.id, …])`. Throws code `.invalidMessage` (e.g. a
    /// control character XML cannot carry) or `.disconnected`.
    @discardableResult
    public func send(_ message: OutgoingChatMessage) throws(XMPPError) -> UInt32 {
        if let problem = message.validationProblem {
            throw XMPPError(code: .invalidMessage, endpoint: endpointDescription, detail: problem)
        }
        return try sendStanza(message.xml, messageID: message.id)
    }

    /// Queues several messages at once, coalesced into few large writes (what a bulk
    /// sender should use: fewer TLS records for both ends). All are validated first;
    /// if one is invalid, none is sent. Returns the sequence numbers, in order.
    @discardableResult
    public func send(contentsOf messages: [OutgoingChatMessage]) throws(XMPPError) -> [UInt32] {
        for message in messages {
            if let problem = message.validationProblem {
                throw XMPPError(code: .invalidMessage, endpoint: endpointDescription, detail: "message \(message.id): \(problem)")
            }
        }
        guard isConnected, let sequences = sendRawBatch(messages.map { ($0.xml, $0.id) }) else {
            throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "")
        }
        return sequences
    }

    /// Sends a XEP-0333 marker (`received`/`displayed`) to the original sender.
    /// Markers are not tracked for delivery.
    @discardableResult
    public func sendMarker(_ marker: ChatMarker) throws(XMPPError) -> UInt32 {
        try sendStanza(marker.stanza(id: idGenerator.next()).xml(), messageID: nil)
    }

    /// Sends a XEP-0085 chat state (typing notification); not tracked.
    @discardableResult
    public func sendChatState(_ chatState: ChatState, to: ChatJID, kind: OutgoingChatMessage.Kind = .chat,
                              dialogID: String? = nil) throws(XMPPError) -> UInt32 {
        try sendStanza(chatState.stanza(kind: kind, to: to, dialogID: dialogID).xml(), messageID: nil)
    }

    /// Whether the server has acknowledged the stanza with this sequence number.
    public func isAcknowledged(_ sequence: UInt32) -> Bool { tracker.isAcknowledged(sequence) }

    /// How many stanzas the server has acknowledged in this session (its last `h`).
    public var acknowledgedCount: UInt32 { tracker.ledger.acknowledgedCount }

    /// Messages sent in this (or the lost) session and not acknowledged, oldest first.
    /// Kept after a loss until the next `connect`.
    public var unacknowledgedMessageIDs: [ObjectID] { tracker.unacknowledged }

    /// Joins a MUC room as `nick` (QuickBlox: our user id) without history and waits
    /// for our own presence with status 110. An error presence throws code `.roomJoinFailed`
    /// (detail: the condition, e.g. `item-not-found`, then the room).
    public func join(roomJID: ChatJID, nick: String, timeout: Double = 10) throws(XMPPError) {
        guard isConnected else { throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "") }
        guard case .sendJoinPresence(let room, let nick) = state.handle(.joinRequested(room: roomJID, nick: nick)) else {
            return  // already joined
        }
        do {
            _ = try sendStanza(RoomPresence.joinStanza(room: room, nick: nick).xml(), messageID: nil)
        } catch {
            _ = state.handle(.joinAbandoned(room: room, nick: nick))
            throw error
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        runLoop(until: deadline) { $0.state.roomJoin(room: room, nick: nick) != .waiting || !$0.isConnected }
        let outcome = state.roomJoin(room: room, nick: nick)
        if outcome == .joined { return }
        _ = state.handle(.joinAbandoned(room: room, nick: nick))
        if case .failed(let condition)? = outcome {
            throw XMPPError(code: .roomJoinFailed, endpoint: endpointDescription, detail: "\(condition) (room \(room))")
        }
        if !isConnected {
            throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "connection lost while joining \(room)")
        }
        throw XMPPError(kind: .timedOut, endpoint: endpointDescription, detail: "no answer from room \(room) within \(Self.format(timeout)) s")
    }

    /// Leaves a room (`type="unavailable"`) as `nick`, or as every nick this session
    /// joined it with; does not wait for the answer.
    public func leave(roomJID: ChatJID, nick: String? = nil) throws(XMPPError) {
        for nick in nick.map({ [$0] }) ?? state.nicks(in: roomJID) {
            if case .sendLeavePresence(let room, let nick) = state.handle(.leaveRequested(room: roomJID, nick: nick)) {
                _ = try sendStanza(RoomPresence.leaveStanza(room: room, nick: nick).xml(), messageID: nil)
            }
        }
    }

    /// The rooms (bare JIDs) this session has joined.
    public var joinedRooms: [ChatJID] { state.joinedRooms }

    private func sendStanza(_ xml: String, messageID: ObjectID?) throws(XMPPError) -> UInt32 {
        guard isConnected, let sequence = sendRaw(xml, messageID: messageID) else {
            throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "")
        }
        return sequence
    }
}
