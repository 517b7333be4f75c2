/// XEP-0199 pings: our round trips, the ack barrier used when the server has no
/// stream management, and answers to the server's pings. `ChatSessionState` picks
/// the ids and matches the replies; this file only writes the stanzas.
extension XMPPConnection {
    /// XEP-0199 ping to the server; returns the round trip in seconds.
    package func ping(timeout: Double = 10) throws(XMPPError) -> Double {
        guard state.phase == .connected, serverDomain != nil, case .sendPing(let id) = state.handle(.pingRequested) else {
            throw XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "")
        }
        let start = ContinuousClock.now
        sendPing(id: id)
        runLoop(until: start + .milliseconds(Int64(max(0, timeout) * 1000))) { connection in
            connection.state.phase != .connected || connection.state.isAnswered(ping: id)
        }
        let answered = state.isAnswered(ping: id)
        _ = state.handle(.pingFinished(id: id))
        if answered {
            // An error reply (feature-not-implemented) still proves the round trip.
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        if state.phase != .connected {
            throw lastFailure ?? XMPPError(kind: .disconnected, endpoint: endpointDescription, detail: "connection lost during ping")
        }
        throw XMPPError(kind: .timedOut, endpoint: endpointDescription, detail: "no ping reply within \(timeout) s")
    }

    /// Without stream management, a ping stands in for `<r/>`: its reply
    /// acknowledges every stanza up to and including it.
    func sendBarrierPing() {
        guard case .sendPing(let id) = state.handle(.barrierRequested), let sequence = sendPing(id: id) else { return }
        _ = state.handle(.barrierQueued(id: id, sequence: sequence))
        tracker.barrierSent()
    }

    /// `<iq type="get"><ping/></iq>` to the server; returns its sequence number.
    @discardableResult
    func sendPing(id: String) -> UInt32? {
        guard let domain = serverDomain else { return nil }
        return sendRaw("<iq type='get' id='\(MarkupEscaper.xmlAttribute.escaping(id))' to='\(MarkupEscaper.xmlAttribute.escaping(domain))'><ping xmlns='urn:xmpp:ping'/></iq>")
    }

    /// `<iq type="result"/>` to a ping from the server (or whoever `to` is).
    func answerPing(id: String, to: String?) {
        sendRaw("<iq type='result' id='\(MarkupEscaper.xmlAttribute.escaping(id))'\(to.map { " to='\(MarkupEscaper.xmlAttribute.escaping($0))'" } ?? "")/>")
    }

    /// An incoming `<iq/>`, for the session state to match against our pings.
    func handleIQ(_ element: StanzaElement) {
        if let answer = LastActivity(element) { return emit(.lastActivity(answer)) }
        if handleContactIQ(element) { return }
        perform(state.handle(.iqReceived(
            type: element[attribute: "type"] ?? "", id: element[attribute: "id"] ?? "", from: element[attribute: "from"],
            isPing: element.child("ping", namespace: Self.pingNamespace) != nil)))
    }

    static let pingNamespace = "urn:xmpp:ping"
}
