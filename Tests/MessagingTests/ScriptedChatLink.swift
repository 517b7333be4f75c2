import Foundation
import Diagnostics
import MessageCache
import XMPPTransport
@testable import Messaging
import ChatIdentifiers

/// A chat link without a socket, for testing the chat engine in process (as SwiftNIO tests a
/// handler on an `EmbeddedChannel`): connects succeed or fail as scripted, what the engine
/// writes is recorded, the server's acks come at the next pump (unless held), and a test
/// plays events in or cuts the connection.
final class ScriptedChatLink: ChatLinking {
    let me: Int
    private(set) var isConnected = false
    var onEvent: ((ChatEvent) -> Void)?
    var onEventsDelivered: (() -> Void)?
    private(set) var acknowledgedCount: UInt32 = 0

    /// The outcome of each connect, in order; once used up, connects succeed.
    var connects: [Failure?] = []
    private(set) var connectCount = 0
    /// Events played to the engine at the next pump.
    var incoming: [ChatEvent] = []
    /// Every message written, in order, across connections.
    private(set) var written: [OutgoingChatMessage] = []
    private(set) var markersSent: [ChatMarker] = []
    /// Corrections written (edits and deletes told to a dialog).
    private(set) var corrections: [(ChatCorrection, to: ChatJID, dialogID: DialogID)] = []
    private(set) var joined: [DialogID] = []
    /// Written and not acknowledged in this connection.
    private var unacknowledged: [ObjectID] = []
    /// The server acknowledges what was written at the next pump; false holds the acks.
    var acknowledges = true
    /// The connection is cut (acks withheld) once this many messages were written in all.
    var cutAfterWrites: Int?
    /// Events come at the end of the pump's whole timeout, as a stream read at the last moment
    /// of a turn does (the test's deadline then passes while they are being read).
    var eventsComeLate = false
    private var ids = ObjectIDGenerator()

    init(me: Int = 1) { self.me = me }

    // MARK: the test's side

    /// The server goes away: what was not acknowledged is reported lost at the next pump.
    func cut() {
        guard isConnected else { return }
        isConnected = false
        incoming.append(.connectionLost(XMPPError(kind: .disconnected, endpoint: "scripted", detail: "cut by the test"),
                                        unacknowledged: unacknowledged))
        unacknowledged.removeAll()
    }

    // MARK: ChatLinking

    func connect() throws(Failure) {
        connectCount += 1
        if !connects.isEmpty, let failure = connects.removeFirst() { throw failure }
        isConnected = true
        unacknowledged.removeAll()
    }

    func disconnect() { isConnected = false }

    func joinRooms(of dialogs: [CachedDialog]) throws(Failure) {
        for dialog in dialogs where dialog.type != .private {
            guard isConnected else { throw Failure(.temporary, "not connected") }
            joined.append(dialog.id)
        }
    }

    func address(of dialog: CachedDialog) throws(Failure) -> (ChatJID, OutgoingChatMessage.Kind) {
        if dialog.type == .private {
            guard let peer = dialog.occupantIDs.first(where: { $0 != me }) else { throw Failure(.invalidInput, "no peer") }
            return (userJID(peer), .chat)
        }
        return (ChatJID.room(dialogID: dialog.id, appID: 1, mucDomain: "muc.localhost"), .groupchat)
    }

    func userJID(_ id: Int) -> ChatJID { ChatJID.user(id, appID: 1, domain: "localhost") }

    func makeMessageID() -> ObjectID { ids.next() }

    func send(contentsOf messages: [OutgoingChatMessage]) throws(XMPPError) {
        guard isConnected else { throw XMPPError(kind: .disconnected, endpoint: "scripted", detail: "") }
        for message in messages {
            written.append(message)
            unacknowledged.append(message.id)
            if let limit = cutAfterWrites, written.count >= limit {
                cutAfterWrites = nil
                cut()
                return
            }
        }
    }

    func send(markers: [ChatMarker]) throws(XMPPError) {
        guard isConnected else { throw XMPPError(kind: .disconnected, endpoint: "scripted", detail: "") }
        markersSent += markers
    }

    func send(chatState: ChatState, to: ChatJID, kind: OutgoingChatMessage.Kind, dialogID: DialogID?) throws(XMPPError) {}

    /// Users whose last activity the engine asked, in order.
    private(set) var lastActivityAsked: [Int] = []

    func requestLastActivity(of id: Int) throws(XMPPError) {
        guard isConnected else { throw XMPPError(kind: .disconnected, endpoint: "scripted", detail: "") }
        lastActivityAsked.append(id)
    }

    /// Contact and privacy list requests written, in order; a test answers them through `incoming`.
    enum ContactRequest: Equatable {
        case roster(id: String)
        case rosterItem(Int, name: String?, remove: Bool, id: String)
        case subscription(SubscriptionPresence.Kind, to: Int)
        case privacy(PrivacyQuery.Request, id: String)
    }
    private(set) var contactRequests: [ContactRequest] = [] {
        didSet { if contactRequests.count > oldValue.count, let request = contactRequests.last { incoming += answer?(request) ?? [] } }
    }
    /// The server's side of contact requests: what each one written brings at the next pump.
    var answer: ((ContactRequest) -> [ChatEvent])?
    private var contactRequestCount = 0

    private func nextContactRequestID() throws(XMPPError) -> String {
        guard isConnected else { throw XMPPError(kind: .disconnected, endpoint: "scripted", detail: "") }
        contactRequestCount += 1
        return "contact-\(contactRequestCount)"
    }

    func requestRoster() throws(XMPPError) -> String {
        let id = try nextContactRequestID()
        contactRequests.append(.roster(id: id))
        return id
    }

    func setRosterItem(_ user: Int, name: String?, remove: Bool) throws(XMPPError) -> String {
        let id = try nextContactRequestID()
        contactRequests.append(.rosterItem(user, name: name, remove: remove, id: id))
        return id
    }

    func sendSubscription(_ kind: SubscriptionPresence.Kind, to user: Int) throws(XMPPError) {
        _ = try nextContactRequestID()
        contactRequests.append(.subscription(kind, to: user))
    }

    /// The server's answer to each privacy list request, played at the next pump; nil: none comes.
    var answersPrivacy: ((PrivacyQuery.Request, _ id: String) -> PrivacyAnswer?)?

    func sendPrivacy(_ request: PrivacyQuery.Request) throws(XMPPError) -> String {
        let id = try nextContactRequestID()
        contactRequests.append(.privacy(request, id: id))
        if let answer = answersPrivacy?(request, id) { incoming.append(.privacy(answer)) }
        return id
    }

    /// The privacy list requests written, in order, without their ids.
    var privacyRequests: [PrivacyQuery.Request] {
        contactRequests.compactMap { if case .privacy(let request, _) = $0 { request } else { nil } }
    }

    func send(correction: ChatCorrection, to: ChatJID, kind: OutgoingChatMessage.Kind, dialogID: DialogID) throws(XMPPError) {
        guard isConnected else { throw XMPPError(kind: .disconnected, endpoint: "scripted", detail: "") }
        corrections.append((correction, to, dialogID))
    }

    func pump(timeout: Double, sliceMilliseconds: Int64, until: (() -> Bool)?) {
        if isConnected && acknowledges && !unacknowledged.isEmpty {
            incoming.append(.delivered(unacknowledged))
            acknowledgedCount += UInt32(unacknowledged.count)
            unacknowledged.removeAll()
        }
        let events = incoming
        incoming.removeAll()
        if eventsComeLate && !events.isEmpty { Thread.sleep(forTimeInterval: timeout) }
        for event in events { onEvent?(event) }
        if !events.isEmpty { onEventsDelivered?() }
    }

    func waitForAcknowledgement(timeout: Double) throws(XMPPError) {
        pump(timeout: 0, sliceMilliseconds: 0, until: nil)
        guard isConnected else { throw XMPPError(kind: .disconnected, endpoint: "scripted", detail: "") }
        guard unacknowledged.isEmpty else { throw XMPPError(kind: .timedOut, endpoint: "scripted", detail: "") }
    }
}
