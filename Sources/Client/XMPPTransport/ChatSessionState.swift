/// The XMPP session as a value: events in, actions out, so every path is tested without a socket. It decides
/// the lifecycle, MUC joins, IQ replies (our pings, ack barriers, carbons, the
/// server's pings) and keep-alive; `XMPPConnection` performs the actions and reports what
/// arrives. No sockets and no clock: times come in with the events.
package struct ChatSessionState: Sendable, Equatable {
    package enum Phase: Sendable, Equatable { case disconnected, connecting, connected, disconnecting }

    /// Where a MUC join (XEP-0045) stands.
    package enum RoomJoin: Sendable, Equatable {
        /// Our join presence went out; no answer yet.
        case waiting
        /// The room sent our own presence (status 110).
        case joined
        /// The room refused with this error condition (e.g. `item-not-found`).
        case failed(String)
    }

    package enum Event: Sendable, Equatable {
        case connectRequested
        /// libstrophe reported the session established (SASL, bind, session done).
        case sessionEstablished
        /// The connect deadline passed before the session was established.
        case deadlinePassed
        case disconnectRequested
        /// The stream ended; `failure` is what the evidence says went wrong, if anything.
        case streamClosed(failure: XMPPError.Kind?)

        /// From `now` on, ping after `interval` seconds of silence (0: never) and
        /// give the connection up `timeout` seconds after an unanswered ping.
        case keepAliveStarted(interval: Double, timeout: Double, now: Double)
        /// Something arrived from the server (any stanza, ack or pong).
        case heard(now: Double)
        /// The event loop ran; time is `now`.
        case tick(now: Double)

        case joinRequested(room: ChatJID, nick: String)
        /// The owner stopped waiting for a join (refused, timed out, or the connection went).
        case joinAbandoned(room: ChatJID, nick: String)
        case leaveRequested(room: ChatJID, nick: String)
        /// A presence from a room occupant arrived.
        case roomPresence(RoomPresence)

        /// The owner wants a round trip to the server (XEP-0199).
        case pingRequested
        /// The owner stopped waiting for that ping's reply (answered or not).
        case pingFinished(id: String)
        /// Sending went idle without stream management: a ping's reply will stand in for `<a h/>`.
        case barrierRequested
        /// The barrier ping `id` went out as stanza number `sequence`.
        case barrierQueued(id: String, sequence: UInt32)
        /// An `<iq/>` arrived; `isPing` when it carries `<ping xmlns="urn:xmpp:ping"/>`.
        case iqReceived(type: String, id: String, from: String?, isPing: Bool)
    }

    package enum Action: Sendable, Equatable {
        /// Open the TCP connection and start the XMPP stream.
        case startConnect
        /// Nothing to do; the request is satisfied by the current phase (not an error).
        case none
        /// The session is up: ask for carbons (XEP-0280, as the SDKs do) under this iq id,
        /// send the initial `<presence/>`, then report success. Nobody waits for the answer.
        case startSession(carbonsRequestID: String)
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

        /// Send our presence to `room/nick` (without history).
        case sendJoinPresence(room: ChatJID, nick: String)
        /// Send `type="unavailable"` to `room/nick`.
        case sendLeavePresence(room: ChatJID, nick: String)
        /// Send `<iq type="get"><ping/></iq>` to the server under this id.
        case sendPing(id: String)
        /// Answer the server's ping (`<iq type="result"/>`): servers drop clients that don't.
        case answerPing(id: String, to: String?)
        /// An ack barrier came back: the server has processed stanzas up to `sequence`.
        case acknowledge(through: UInt32)
        /// Nothing arrived within `timeout` seconds of a keep-alive ping: the socket may
        /// be half-open and never report an error, so close it and report the loss.
        case abortSilentConnection(timeout: Double)
    }

    /// Where our request for carbons (docs/protocol.md §7) stands.
    package enum Carbons: Sendable, Equatable {
        case notRequested
        case requested(id: String)
        case enabled
        /// The server answered with an error: copies of our other devices' sends will not come.
        case refused
    }

    package private(set) var phase: Phase
    package private(set) var carbons: Carbons = .notRequested
    /// MUC joins in progress or done, by occupant key (lowercased room, `/`, nick).
    private var rooms: [String: RoomJoin] = [:]
    /// Our own pings, by id: whether a reply (result or error) has arrived.
    private var pings: [String: Bool] = [:]
    /// Outstanding ack-barrier pings, by id: the sequence number each covers.
    private var barriers: [String: UInt32] = [:]
    private var keepAlive: KeepAliveSchedule?
    private var stanzaNumber = 0

    package init(phase: Phase = .disconnected) { self.phase = phase }

    package mutating func handle(_ event: Event) -> Action {
        switch event {
        case .connectRequested:
            guard phase == .disconnected else {
                // "Already connecting/connected" is not a failure (docs/protocol.md §7); while disconnecting,
                // the caller finishes the disconnect first (see XMPPConnection.connect).
                return .none
            }
            phase = .connecting
            carbons = .notRequested
            rooms = [:]
            pings = [:]
            barriers = [:]
            return .startConnect
        case .sessionEstablished:
            guard phase == .connecting else { return .none }
            phase = .connected
            let id = nextStanzaID("carbons")
            carbons = .requested(id: id)
            return .startSession(carbonsRequestID: id)
        case .deadlinePassed:
            switch phase {
            case .connecting: enterDisconnected(); return .abortConnect(.timedOut)
            case .disconnecting: enterDisconnected(); return .reportDisconnected
            case .connected, .disconnected: return .none
            }
        case .disconnectRequested:
            switch phase {
            case .connecting: enterDisconnected(); return .abortConnect(.disconnected)
            case .connected: phase = .disconnecting; keepAlive = nil; return .closeStream
            case .disconnected, .disconnecting: return .none
            }
        case .streamClosed(let failure):
            switch phase {
            case .connecting: enterDisconnected(); return .reportConnectFailure(failure ?? .cannotConnect)
            case .connected: enterDisconnected(); return .reportConnectionLost(failure ?? .disconnected)
            case .disconnecting: enterDisconnected(); return .reportDisconnected
            case .disconnected: return .none
            }

        case .keepAliveStarted(let interval, let timeout, let now):
            guard phase == .connected else { return .none }
            keepAlive = KeepAliveSchedule(interval: interval, timeout: timeout, now: now)
            return .none
        case .heard(let now):
            keepAlive?.heard(at: now)
            return .none
        case .tick(let now):
            guard phase == .connected, var schedule = keepAlive else { return .none }
            let decision = schedule.tick(now: now)
            keepAlive = schedule
            switch decision {
            case .none:
                return .none
            case .sendPing:
                return .sendPing(id: nextStanzaID("keepalive"))
            case .connectionDead:
                enterDisconnected()
                return .abortSilentConnection(timeout: schedule.timeout)
            }

        case .joinRequested(let room, let nick):
            let key = Self.occupantKey(room: room, nick: nick)
            guard phase == .connected, rooms[key] != .joined else { return .none }
            rooms[key] = .waiting
            return .sendJoinPresence(room: room.bare, nick: nick)
        case .joinAbandoned(let room, let nick):
            let key = Self.occupantKey(room: room, nick: nick)
            if rooms[key] != .joined { rooms[key] = nil }
            return .none
        case .leaveRequested(let room, let nick):
            rooms[Self.occupantKey(room: room, nick: nick)] = nil
            return .sendLeavePresence(room: room.bare, nick: nick)
        case .roomPresence(let presence):
            let key = Self.occupantKey(room: presence.room, nick: presence.nick)
            guard let current = rooms[key] else { return .none }
            if let condition = presence.errorCondition {
                if current == .waiting { rooms[key] = .failed(condition) }
            } else if presence.isSelf {
                rooms[key] = presence.isUnavailable ? nil : .joined
            }
            return .none

        case .pingRequested:
            guard phase == .connected else { return .none }
            let id = nextStanzaID("ping")
            pings[id] = false
            return .sendPing(id: id)
        case .pingFinished(let id):
            pings[id] = nil
            return .none
        case .barrierRequested:
            guard phase == .connected else { return .none }
            return .sendPing(id: nextStanzaID("barrier"))
        case .barrierQueued(let id, let sequence):
            barriers[id] = sequence
            return .none
        case .iqReceived(let type, let id, let from, let isPing):
            if type == "result" || type == "error" {
                if carbons == .requested(id: id) {
                    carbons = type == "result" ? .enabled : .refused
                    return .none
                }
                // Even an error reply proves the server processed everything before it.
                if let sequence = barriers.removeValue(forKey: id) { return .acknowledge(through: sequence) }
                if pings[id] == false { pings[id] = true }
                return .none
            }
            return type == "get" && isPing ? .answerPing(id: id, to: from) : .none
        }
    }

    // MARK: what the owner waits for

    /// The state of a join as `nick`, or nil if none was asked for (or it was abandoned or left).
    package func roomJoin(room: ChatJID, nick: String) -> RoomJoin? {
        rooms[Self.occupantKey(room: room, nick: nick)]
    }

    /// The nicks this session asked to join `room` with (joined or not).
    package func nicks(in room: ChatJID) -> [String] {
        let prefix = room.bare.description.lowercased() + "/"
        return rooms.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    /// The rooms (bare JIDs) this session has joined.
    package var joinedRooms: [ChatJID] {
        rooms.filter { $0.value == .joined }.keys.sorted().compactMap { ChatJID(parsing: $0)?.bare }
    }

    /// Whether our ping `id` has been answered (a result or an error both prove the round trip).
    package func isAnswered(ping id: String) -> Bool { pings[id] == true }

    // MARK: private

    private mutating func enterDisconnected() {
        phase = .disconnected
        keepAlive = nil
    }

    private mutating func nextStanzaID(_ purpose: String) -> String {
        stanzaNumber += 1
        return "chatctl-\(purpose)-\(stanzaNumber)"
    }

    private static func occupantKey(room: ChatJID, nick: String) -> String {
        room.bare.description.lowercased() + "/" + nick
    }
}
