import ChatIdentifiers

/// A QuickBlox chat message to send: `type="chat"` to a user's bare JID or
/// `type="groupchat"` to a room's bare JID, with the QuickBlox `extraParams`.
package struct OutgoingChatMessage: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable { case chat, groupchat }

    /// The stanza id and the message's `_id` in history.
    package var id: ObjectID
    package var kind: Kind
    /// A bare JID: the peer user (`chat`) or the room (`groupchat`).
    package var to: ChatJID
    package var body: String
    package var dialogID: DialogID
    /// Ask the server to store it in history (`save_to_history` 1/0).
    package var saveToHistory: Bool
    /// Adds `<markable xmlns="urn:xmpp:chat-markers:0"/>`.
    package var markable: Bool
    /// Unix seconds; the server stamps it when nil.
    package var dateSent: Int?
    /// `<attachment …/>` elements written directly inside extraParams, as the SDKs
    /// read them (docs/protocol.md §8); the blob uid is `id`.
    package var attachments: [ChatAttachment]
    /// Custom `<key>value</key>` pairs inside extraParams (sorted by key).
    package var customParameters: [String: String]

    package init(id: ObjectID, kind: Kind, to: ChatJID, body: String, dialogID: DialogID,
                saveToHistory: Bool = true, markable: Bool = true, dateSent: Int? = nil,
                attachments: [ChatAttachment] = [], customParameters: [String: String] = [:]) {
        self.id = id; self.kind = kind; self.to = to.bare; self.body = body; self.dialogID = dialogID
        self.saveToHistory = saveToHistory; self.markable = markable; self.dateSent = dateSent
        self.attachments = attachments; self.customParameters = customParameters
    }

    /// The extraParams keys this type writes itself; a custom key may not reuse them.
    package static let reservedParameterNames: Set<String> = ["save_to_history", "dialog_id", "date_sent", "attachment"]

    /// Why this message cannot be sent as it is, or nil. Never quotes the body.
    package var validationProblem: String? {
        if let bad = MarkupEscaper.firstCharacterXMLCannotCarry(in: body) {
            return "the message contains control character U+\(Self.hex(bad.value)), which XMPP (XML 1.0) cannot carry"
        }
        if dialogID.rawValue.isEmpty { return "the message has no dialog id" }
        for (key, value) in customParameters {
            if !StanzaElement.isSimpleName(key) || Self.reservedParameterNames.contains(key) {
                return "custom parameter name \"\(key)\" is not allowed (letters, digits, _ - . ; not a reserved name)"
            }
            if let bad = MarkupEscaper.firstCharacterXMLCannotCarry(in: value) {
                return "custom parameter \"\(key)\" contains control character U+\(Self.hex(bad.value))"
            }
        }
        return attachments.lazy.compactMap(\.validationProblem).first
    }

    /// The `<message>` stanza (validate first; see `validationProblem`).
    package var stanza: StanzaElement {
        var extra: [StanzaElement] = [
            StanzaElement("save_to_history", text: saveToHistory ? "1" : "0"),
            StanzaElement("dialog_id", text: dialogID.rawValue),
        ]
        if let dateSent { extra.append(StanzaElement("date_sent", text: String(dateSent))) }
        extra += attachments.map(\.element)
        for key in customParameters.keys.sorted() {
            extra.append(StanzaElement(key, text: customParameters[key]!))
        }
        var children = [StanzaElement("body", text: body)]
        if markable { children.append(StanzaElement("markable", namespace: Self.markersNamespace)) }
        children.append(StanzaElement("extraParams", namespace: "jabber:client", children: extra))
        return StanzaElement("message", attributes: [.init("type", kind.rawValue), .init("to", to.description), .init("id", id.rawValue)],
                              children: children)
    }

    /// The stanza as sent. `<message>` inherits the stream's `jabber:client`;
    /// extraParams repeats it explicitly, as the QuickBlox SDKs write it.
    package var xml: String { stanza.xml() }

    static let markersNamespace = "urn:xmpp:chat-markers:0"

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
