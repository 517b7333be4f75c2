/// The XMPP session lifecycle as a value: events in, actions out (house rule 7).
/// `XMPPConnection` performs the actions; this type decides them, without sockets.
public struct ChatSessionState: Sendable, Equatable {
    public enum Phase: Sendable, Equatable { case disconnected, connecting, connected, disconnecting }

    public enum Event: Sendable, Equatable {
        case connectRequested
        /// libstrophe reported the session established (SASL, bind, session done).
        case sessionEstablished
        /// The connect deadline passed before the session was established.
        case deadlinePassed
        case disconnectRequested
        /// The stream ended; `failure` is what the evidence says went wrong, if anything.
        case streamClosed(failure: XMPPError.Kind?)
    }

    public enum Action: Sendable, Equatable {
        /// Open the TCP connection and start the XMPP stream.
        case startConnect
        /// Nothing to do; the request is satisfied by the current phase (not an error).
        case none
        /// The session is up: send the initial `<presence/>`, then report success.
        case sendInitialPresence
        /// Give up the attempt: close the socket and report `kind`.
        case abortConnect(XMPPError.Kind)
        /// Close the stream politely (`</stream:stream>`) and wait for the server.
        case closeStream
        /// The connect attempt ended without a session: report `kind`.
        case reportConnectFailure(XMPPError.Kind)
        /// An established session ended without being asked to.
        case reportConnectionLost(XMPPError.Kind)
        /// A requested disconnect completed.
        case reportDisconnected
    }

    public private(set) var phase: Phase

    public init(phase: Phase = .disconnected) { self.phase = phase }

    public mutating func handle(_ event: Event) -> Action {
        switch (phase, event) {
        case (.disconnected, .connectRequested):
            phase = .connecting
            return .startConnect
        case (.connecting, .connectRequested), (.connected, .connectRequested):
            return .none  // "already connecting" / "already connected" are not failures (§7)
        case (.disconnecting, .connectRequested):
            return .none  // caller finishes the disconnect first; see XMPPConnection.connect

        case (.connecting, .sessionEstablished):
            phase = .connected
            return .sendInitialPresence
        case (_, .sessionEstablished):
            return .none

        case (.connecting, .deadlinePassed):
            phase = .disconnected
            return .abortConnect(.timedOut)
        case (.disconnecting, .deadlinePassed):
            phase = .disconnected
            return .reportDisconnected
        case (_, .deadlinePassed):
            return .none

        case (.connecting, .disconnectRequested):
            phase = .disconnected
            return .abortConnect(.disconnected)
        case (.connected, .disconnectRequested):
            phase = .disconnecting
            return .closeStream
        case (.disconnected, .disconnectRequested), (.disconnecting, .disconnectRequested):
            return .none

        case (.connecting, .streamClosed(let failure)):
            phase = .disconnected
            return .reportConnectFailure(failure ?? .cannotConnect)
        case (.connected, .streamClosed(let failure)):
            phase = .disconnected
            return .reportConnectionLost(failure ?? .disconnected)
        case (.disconnecting, .streamClosed):
            phase = .disconnected
            return .reportDisconnected
        case (.disconnected, .streamClosed):
            return .none
        }
    }
}
