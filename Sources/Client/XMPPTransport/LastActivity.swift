/// XEP-0012 last activity of a user, as the server answers for them: how many seconds ago
/// their last resource went offline (0: online now), or why it will not say (docs/protocol.md
/// §7, "Presence and last activity"; the SDKs' `getLastUserActivity`).
package struct LastActivity: Sendable, Equatable {
    package var userID: Int
    /// Seconds since the user was last online; 0 while online; nil with `errorCondition`.
    package var seconds: Int?
    /// `item-not-found` (never seen), `forbidden` (no subscription), `service-unavailable`…
    package var errorCondition: String?

    package init(userID: Int, seconds: Int?, errorCondition: String? = nil) {
        self.userID = userID; self.seconds = seconds; self.errorCondition = errorCondition
    }

    static let namespace = "jabber:iq:last"
    /// Our requests' ids start so, as the JavaScript SDK's do: an error reply need not repeat the query.
    static let idPrefix = "lastActivity"

    /// `<iq type="get" id="lastActivity…" to="{user bare JID}"><query xmlns="jabber:iq:last"/></iq>`.
    static func request(to user: ChatJID, id: String) -> StanzaElement {
        StanzaElement("iq", attributes: [.init("type", "get"), .init("id", idPrefix + id), .init("to", user.bare.description)],
                      children: [StanzaElement("query", namespace: namespace)])
    }

    /// The answer to a request of ours, from a user's JID; nil for any other IQ.
    package init?(_ stanza: StanzaElement) {
        guard stanza.name == "iq", let id = stanza[attribute: "id"], id.hasPrefix(Self.idPrefix),
              let userID = stanza[attribute: "from"].flatMap(ChatJID.init(parsing:))?.userID else { return nil }
        self.userID = userID
        switch stanza[attribute: "type"] {
        case "result":
            guard let query = stanza.child("query", namespace: Self.namespace),
                  let seconds = query[attribute: "seconds"].flatMap({ Int($0) }), seconds >= 0 else {
                self.seconds = nil
                errorCondition = "bad-request"
                return
            }
            self.seconds = seconds
            errorCondition = nil
        case "error":
            seconds = nil
            errorCondition = ChatMessageError.details(of: stanza)?.condition ?? "undefined-condition"
        default:
            return nil
        }
    }
}
