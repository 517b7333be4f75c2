/// Sending and XEP-0198 stream management: every stanza is counted, acks are
/// requested every `ackRequestInterval` stanzas and when sending goes idle, and
/// `<a h/>` turns into `.delivered` events. No C here; bytes go out through `write`.
extension XMPPConnection {
    /// XEP-0198 state: whether the server answered `<enabled/>`, stanzas sent and
    /// acknowledged. Right after connect the status may still be `.pending`;
    /// `waitForAcknowledgement`, `ping` or `pump` settle it.
    package var streamManagement: StreamManagementLedger { tracker.ledger }

    /// Blocks until the server has acknowledged (XEP-0198 `<a h/>`) every stanza sent
    /// so far; returns how many that is. libstrophe 0.12 answers the server's `<r/>`
    /// but never asks for acks itself, so this sends `<r/>`. Without SM (server said
    /// `<failed/>` or never answered `<enable/>`), a ping round trip is the barrier:
    /// the server has processed everything sent before its reply.
    @discardableResult
    package func waitForAcknowledgement(timeout: Double = 10) throws(XMPPError) -> UInt32 {
        guard state.phase == .connected else {
            throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "")
        }
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int64(max(0, timeout) * 1000))
        // Right after connect the answer to <enable/> may still be on its way.
        runLoop(until: deadline) { $0.tracker.ledger.status != .pending || $0.state.phase != .connected }
        let target = tracker.ledger.sentCount
        if tracker.ledger.status == .enabled {
            requestAcknowledgement()
            runLoop(until: deadline) { connection in
                connection.state.phase != .connected || connection.tracker.isAcknowledged(target)
            }
            if tracker.isAcknowledged(target) { return target }
        } else if state.phase == .connected {
            let remaining = deadline - ContinuousClock.now
            let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
            _ = try ping(timeout: max(0, seconds))
            return target
        }
        if state.phase != .connected {
            throw lastFailure ?? XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "connection lost before the server acknowledged")
        }
        throw XMPPError(kind: .timedOut, endpoint: endpointDescription,
                        detail: "server acknowledged \(tracker.ledger.acknowledgedCount) of \(target) stanzas within \(timeout) s")
    }

    /// Queues raw XML on the stream; stanzas are counted for stream management
    /// (with the message id they carry, if tracked), and an ack is requested every
    /// `ackRequestInterval` stanzas. Returns the stanza's sequence number.
    @discardableResult
    func sendRaw(_ xml: String, countsAsStanza: Bool = true, messageID: ObjectID? = nil) -> UInt32? {
        var xml = xml
        guard write(&xml), countsAsStanza else { return nil }
        let (sequence, requestAck) = tracker.recordSent(messageID: messageID)
        if requestAck { requestAcknowledgement() }
        return sequence
    }

    /// Queues one stanza of the session (throws `.disconnected` without one).
    func sendStanza(_ xml: String, messageID: ObjectID?) throws(XMPPError) -> UInt32 {
        guard isConnected, let sequence = sendRaw(xml, messageID: messageID) else {
            throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "")
        }
        return sequence
    }

    /// Queues several stanzas as one write (one libstrophe queue item, one TLS record
    /// per ~32 KB instead of one per stanza), counting each for stream management.
    /// libstrophe's own SM counter then counts chunks, not stanzas; it only uses that
    /// counter for resumption, which this client never asks for.
    /// With `askingForAcknowledgement`, the write ends with the request for an ack
    /// of everything not yet covered by one (or, without SM, a ping barrier follows it).
    func sendRawBatch(_ stanzas: [(xml: String, messageID: ObjectID?)], askingForAcknowledgement: Bool = false) -> [UInt32]? {
        guard hasStream else { return nil }
        var sequences: [UInt32] = []
        sequences.reserveCapacity(stanzas.count)
        var chunk = ""
        chunk.reserveCapacity(36 * 1024)
        for stanza in stanzas {
            chunk += stanza.xml
            let (sequence, requestAck) = tracker.recordSent(messageID: stanza.messageID)
            sequences.append(sequence)
            if requestAck { chunk += "<r xmlns='urn:xmpp:sm:3'/>" }
            if chunk.utf8.count >= 32 * 1024 {
                write(&chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        var barrier = false
        if askingForAcknowledgement && state.phase == .connected {
            switch tracker.sendQueueIdle() {
            case .none: break
            case .requestAck: chunk += "<r xmlns='urn:xmpp:sm:3'/>"
            case .pingBarrier: barrier = true
            }
        }
        if !chunk.isEmpty { write(&chunk) }
        if barrier { sendBarrierPing() }
        return sequences
    }

    /// `<r/>`: not a stanza, so not counted.
    func requestAcknowledgement() {
        sendRaw("<r xmlns='urn:xmpp:sm:3'/>", countsAsStanza: false)
    }

    /// Sending went idle (the owner pumps): ask for an ack of what is not covered yet.
    func flushAcknowledgementRequest() {
        guard state.phase == .connected else { return }
        switch tracker.sendQueueIdle() {
        case .none: break
        case .requestAck: requestAcknowledgement()
        case .pingBarrier: sendBarrierPing()
        }
    }

    /// `<enabled/>`, `<failed/>` and `<a h/>` from the server.
    func handleStreamManagement(_ element: StanzaElement) {
        switch element.name {
        case "enabled": tracker.enabled()
        case "failed": tracker.failed()
        case "a":
            if let h = element[attribute: "h"].flatMap({ UInt32($0) }) {
                let ids = tracker.acknowledge(h: h)
                if !ids.isEmpty { emit(.delivered(ids)) }
            }
        default: break
        }
    }

    static let streamManagementNamespace = "urn:xmpp:sm:3"
}
