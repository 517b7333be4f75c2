import Testing
@testable import XMPPTransport

/// Users' presence and XEP-0012 answers, read from element trees shaped like libstrophe's
/// (docs/protocol.md §7, "Presence and last activity"); the request as written.
@Suite("Presence and last activity parsing")
struct PresenceParsingTests {
    typealias E = StanzaElement

    static func presence(from: String, type: String? = nil, _ children: [E] = []) -> E {
        var attributes = [E.Attribute("from", from), .init("to", "1-77@chat.example/me")]
        if let type { attributes.append(.init("type", type)) }
        return E("presence", namespace: "jabber:client", attributes: attributes, children: children)
    }

    @Test func availableAndUnavailableFromAUsersResource() {
        #expect(UserPresence(Self.presence(from: "1001-77@chat.example/web", [E("show", text: "away")]))
                == UserPresence(userID: 1001, resource: "web", isAvailable: true))
        #expect(UserPresence(Self.presence(from: "1001-77@chat.example/web", type: "unavailable"))
                == UserPresence(userID: 1001, resource: "web", isAvailable: false))
        #expect(UserPresence(Self.presence(from: "1001-77@chat.example", type: "unavailable"))
                == UserPresence(userID: 1001, resource: nil, isAvailable: false))
    }

    @Test func roomOccupantsSubscriptionsAndErrorsAreNotAUsersPresence() {
        let occupant = Self.presence(from: "77_dialog1@muc.chat.example/1001",
                                     [E("x", namespace: RoomPresence.mucUserNamespace, children: [E("item", attributes: [.init("affiliation", "member")])])])
        #expect(UserPresence(occupant) == nil)
        #expect(UserPresence(Self.presence(from: "77_dialog1@muc.chat.example/1001")) == nil, "a room JID, even without <x/>")
        #expect(UserPresence(Self.presence(from: "1001-77@chat.example", type: "subscribe")) == nil)
        #expect(UserPresence(Self.presence(from: "1001-77@chat.example/web", type: "error")) == nil)
        #expect(UserPresence(Self.presence(from: "chat.example")) == nil, "the server is no user")
    }

    @Test func theRequestGoesToTheBareJIDUnderOurIdPrefix() {
        let xml = LastActivity.request(to: ChatJID(parsing: "1001-77@chat.example/web")!, id: "65600000deadbeef01000001").xml()
        #expect(xml == "<iq type=\"get\" id=\"lastActivity65600000deadbeef01000001\" to=\"1001-77@chat.example\"><query xmlns=\"jabber:iq:last\"/></iq>")
    }

    static func iq(_ type: String, id: String = "lastActivity1", from: String = "1001-77@chat.example", _ children: [E]) -> E {
        E("iq", namespace: "jabber:client", attributes: [.init("type", type), .init("id", id), .init("from", from)], children: children)
    }

    @Test func answersSecondsOrWhyNot() {
        #expect(LastActivity(Self.iq("result", [E("query", namespace: "jabber:iq:last", attributes: [.init("seconds", "300")])]))
                == LastActivity(userID: 1001, seconds: 300))
        #expect(LastActivity(Self.iq("result", [E("query", namespace: "jabber:iq:last", attributes: [.init("seconds", "0")])]))?.seconds == 0)
        let error = Self.iq("error", [E("error", attributes: [.init("type", "cancel")], children: [
            E("item-not-found", namespace: "urn:ietf:params:xml:ns:xmpp-stanzas")])])
        #expect(LastActivity(error) == LastActivity(userID: 1001, seconds: nil, errorCondition: "item-not-found"))
        let garbled = Self.iq("result", [E("query", namespace: "jabber:iq:last", attributes: [.init("seconds", "-5")])])
        #expect(LastActivity(garbled) == LastActivity(userID: 1001, seconds: nil, errorCondition: "bad-request"))
    }

    @Test func otherIQsAreNotAnswers() {
        let query = [E("query", namespace: "jabber:iq:last", attributes: [.init("seconds", "1")])]
        #expect(LastActivity(Self.iq("result", id: "ping-1", query)) == nil, "not our request's id")
        #expect(LastActivity(Self.iq("get", query)) == nil, "a request, not an answer")
        #expect(LastActivity(Self.iq("result", from: "chat.example", query)) == nil, "not from a user")
    }
}
