import ChatIdentifiers

/// What the connection reports to its owner during `pump` (and the other blocking
/// calls): incoming chat traffic, delivery acknowledgements, and connection loss.
package enum ChatEvent: Sendable, Equatable {
    case message(IncomingChatMessage)
    /// A XEP-0280 copy of a 1:1 message another of our resources sent or received
    /// (read by `parse(_:receivedAt:ownJID:)`, which ignores forged ones).
    case carbon(IncomingCarbon)
    /// A QuickBlox system notification (`type="headline"`): a dialog created or changed.
    case systemNotification(IncomingSystemNotification)
    case marker(ChatMarker)
    case chatState(ChatState, from: ChatJID, dialogID: DialogID?)
    /// A message we sent bounced (`<message type="error">`).
    case messageError(ChatMessageError)
    /// The server acknowledged (XEP-0198) these messages, in send order: they are sent.
    case delivered([ObjectID])
    /// The established session ended without being asked to. `unacknowledged` are the
    /// messages sent (queued) but never acknowledged: keep them in the outbox and resend.
    case connectionLost(XMPPError, unacknowledged: [ObjectID])
    /// A user's resource came online or went away (not a room occupant's: `RoomPresence`).
    case presence(UserPresence)
    /// The answer to `requestLastActivity(of:)`.
    case lastActivity(LastActivity)
    /// A message's sender changed or withdrew it (XEP-0308, XEP-0424; ChatCorrection).
    case correction(ChatCorrection, from: ChatJID, dialogID: DialogID?)
    /// The contact list asked for, a change the server pushed, or a request's outcome.
    case roster(RosterUpdate)
    /// Someone asks to see our presence, or answers or ends such a request.
    case subscription(SubscriptionPresence)
    /// A privacy list request's answer, or a list changed by another session.
    case privacy(PrivacyAnswer)

    /// Parses a `<message>` stanza; nil for anything else or nothing of interest
    /// (e.g. a room subject, a carbon, an empty message). Pure: `receivedAt` stands
    /// in for "now" when the stanza carries no `date_sent`.
    package static func parse(_ stanza: StanzaElement, receivedAt: Int) -> ChatEvent? {
        guard stanza.name == "message" else { return nil }
        let type = stanza[attribute: "type"] ?? "normal"
        let from = stanza[attribute: "from"].flatMap(ChatJID.init(parsing:))
        let id = stanza[attribute: "id"]
        let extra = stanza.child("extraParams")
        let extraDialogID = extra?.child("dialog_id").map(\.text).flatMap { $0.isEmpty ? nil : DialogID($0) }

        if type == "error" {
            let details = ChatMessageError.details(of: stanza)
            return .messageError(ChatMessageError(id: id, from: from, condition: details?.condition ?? "undefined-condition",
                                                  type: details?.type, text: details?.text))
        }
        guard type == "chat" || type == "groupchat", let from else { return nil }
        let kind: OutgoingChatMessage.Kind = type == "chat" ? .chat : .groupchat
        let dialogID = extraDialogID ?? (kind == .groupchat ? from.roomDialogID : nil)

        if let correction = ChatCorrection.parse(stanza) { return .correction(correction, from: from, dialogID: dialogID) }
        let attachments = Self.attachments(of: stanza, extraParams: extra)
        // An attachment alone is a message too (the SDKs send `[attachment]`; a sender that leaves the body out is read the same).
        if let body = stanza.child("body") ?? (attachments.isEmpty ? nil : StanzaElement("body")) {
            let senderUserID = kind == .chat ? from.userID : from.resource.flatMap { Int($0) }
            var custom: [String: String] = [:]
            for child in extra?.children ?? [] where !OutgoingChatMessage.reservedParameterNames.contains(child.name) && child.children.isEmpty {
                custom[child.name] = child.text
            }
            let dateSent = extra?.child("date_sent").flatMap { Self.unixSeconds($0.text) } ?? receivedAt
            let markable = stanza.child("markable", namespace: OutgoingChatMessage.markersNamespace) != nil
            return .message(IncomingChatMessage(kind: kind, id: id ?? "", from: from, senderUserID: senderUserID,
                                                dialogID: dialogID, dateSent: dateSent, body: body.text,
                                                customParameters: custom, attachments: attachments, markable: markable))
        }
        for child in stanza.children where (child.namespace ?? stanza.namespace) == OutgoingChatMessage.markersNamespace {
            if let kind = ChatMarker.Kind(rawValue: child.name), let messageID = child[attribute: "id"] {
                return .marker(ChatMarker(kind: kind, messageID: messageID, peer: from, dialogID: dialogID))
            }
        }
        for child in stanza.children where (child.namespace ?? stanza.namespace) == ChatState.namespace {
            if let state = ChatState(rawValue: child.name) { return .chatState(state, from: from, dialogID: dialogID) }
        }
        return nil
    }

    /// The `<attachment/>` elements directly inside extraParams (docs/protocol.md §8).
    /// The JavaScript SDK for Node.js put them directly inside `<message>` instead
    /// until its fix of December 2016: read
    /// there when extraParams has none.
    static func attachments(of stanza: StanzaElement, extraParams: StanzaElement?) -> [ChatAttachment] {
        let inside = (extraParams?.children ?? []).filter { $0.name == "attachment" }
        let elements = inside.isEmpty ? stanza.children.filter { $0.name == "attachment" } : inside
        return elements.map { ChatAttachment(attributes: $0.attributes) }
    }

    /// `1700000000` or `1700000000.123` (QuickBlox sends both forms); nil otherwise.
    static func unixSeconds(_ text: String) -> Int? {
        var trimmed = Substring(text)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        if let value = Int(trimmed) { return value }
        if let value = Double(trimmed), value.isFinite, value >= 0, value < 1e11 { return Int(value) }
        return nil
    }
}
