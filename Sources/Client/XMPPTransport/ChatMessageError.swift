/// A `<message type="error">`: the server (or peer) bounced a message we sent.
package struct ChatMessageError: Sendable, Equatable {
    /// The id of the bounced message (our ObjectId), if the server kept it.
    package var id: String?
    package var from: ChatJID?
    /// The defined condition, e.g. `service-unavailable`, `item-not-found`.
    package var condition: String
    /// `<error type="…">`: cancel, modify, auth, wait.
    package var type: String?
    /// The server's `<text>`, if any.
    package var text: String?

    package init(id: String?, from: ChatJID?, condition: String, type: String?, text: String?) {
        self.id = id; self.from = from; self.condition = condition; self.type = type; self.text = text
    }

    static let stanzasNamespace = "urn:ietf:params:xml:ns:xmpp-stanzas"

    /// The condition/type/text of an `<error>` child of any stanza.
    static func details(of stanza: StanzaElement) -> (condition: String, type: String?, text: String?)? {
        guard let error = stanza.child("error") else { return nil }
        let condition = error.children.first {
            ($0.namespace ?? error.namespace) == stanzasNamespace && $0.name != "text"
        }?.name ?? error.children.first { $0.name != "text" }?.name ?? "undefined-condition"
        let text = error.child("text").map(\.text)
        return (condition, error[attribute: "type"], text)
    }
}
