import Testing
@testable import XMPPTransport

/// Contact lists (RFC 6121 rosters and subscription presences) and privacy lists (XEP-0016)
/// as written and read, in the shapes docs/protocol.md §7 shows the sandbox answering.
@Suite("Contact and privacy list stanzas")
struct ContactListStanzaTests {
    typealias E = StanzaElement
    static let me = ChatJID(parsing: "1-77@chat.example/me")!
    static let bob = ChatJID(parsing: "2-77@chat.example")!

    static func iq(_ type: String, id: String, from: String? = nil, _ children: [E]) -> E {
        var attributes = [E.Attribute("type", type), .init("id", id), .init("to", me.description)]
        if let from { attributes.append(.init("from", from)) }
        return E("iq", namespace: "jabber:client", attributes: attributes, children: children)
    }

    static func query(_ namespace: String, _ children: [E] = []) -> E { E("query", namespace: namespace, children: children) }

    static func error(_ condition: String) -> E {
        E("error", attributes: [.init("type", "cancel")], children: [E(condition, namespace: "urn:ietf:params:xml:ns:xmpp-stanzas")])
    }

    // MARK: rosters

    @Test func theRosterIsAskedForAndChangedAsRFC6121Writes() {
        #expect(RosterQuery.request(id: "1").xml() == #"<iq type="get" id="roster1"><query xmlns="jabber:iq:roster"/></iq>"#)
        #expect(RosterQuery.set(Self.bob.with(resource: "web"), remove: true, id: "2").xml()
                == #"<iq type="set" id="roster2"><query xmlns="jabber:iq:roster"><item jid="2-77@chat.example" subscription="remove"/></query></iq>"#)
        #expect(RosterQuery.set(Self.bob, name: "Bob & co", id: "3").xml()
                == #"<iq type="set" id="roster3"><query xmlns="jabber:iq:roster"><item jid="2-77@chat.example" name="Bob &amp; co"/></query></iq>"#)
    }

    @Test func theRosterAnswerListsUsersWithTheirSubscriptions() {
        let answer = Self.iq("result", id: "roster1", [Self.query("jabber:iq:roster", [
            E("item", attributes: [.init("jid", "2-77@chat.example"), .init("subscription", "both"), .init("name", "Bob")],
              children: [E("group", text: "work")]),
            E("item", attributes: [.init("jid", "3-77@chat.example"), .init("subscription", "none"), .init("ask", "subscribe")]),
            E("item", attributes: [.init("jid", "4-77@chat.example")]),
            E("item", attributes: [.init("jid", "chat.example"), .init("subscription", "both")]),
            E("item", attributes: [.init("jid", "5-77@chat.example"), .init("subscription", "sometimes")]),
        ])])
        #expect(RosterUpdate(answer, ownJID: Self.me) == .roster([
            RosterItem(userID: 2, name: "Bob", subscription: .both, groups: ["work"]),
            RosterItem(userID: 3, subscription: .none, isAwaitingApproval: true),
            RosterItem(userID: 4, subscription: .none),
        ]), "an item that is no user, or of an unknown subscription, is not read")
        #expect(RosterUpdate(Self.iq("result", id: "roster2", []), ownJID: Self.me) == .done(id: "2"))
        #expect(RosterUpdate(Self.iq("error", id: "roster2", [Self.error("item-not-found")]), ownJID: Self.me)
                == .refused(id: "2", condition: "item-not-found"))
        #expect(RosterUpdate(Self.iq("result", id: "ping-1", []), ownJID: Self.me) == nil, "not our request")
    }

    @Test func aPushCountsOnlyFromTheServerOrOurOwnAccount() {
        let item = E("item", attributes: [.init("jid", "2-77@chat.example"), .init("subscription", "remove")])
        let push = Self.iq("set", id: "roster-push-3", [Self.query("jabber:iq:roster", [item])])
        #expect(RosterUpdate(push, ownJID: Self.me) == .push(RosterItem(userID: 2, subscription: .remove)))
        let ownBare = Self.iq("set", id: "p", from: "1-77@chat.example", [Self.query("jabber:iq:roster", [item])])
        #expect(RosterUpdate(ownBare, ownJID: Self.me) != nil)
        let forged = Self.iq("set", id: "p", from: "2-77@chat.example/web", [Self.query("jabber:iq:roster", [item])])
        #expect(RosterUpdate(forged, ownJID: Self.me) == nil, "another user may not change our roster")
        #expect(XMPPConnection.acknowledgement(of: push)?.xml() == #"<iq type="result" id="roster-push-3"/>"#)
    }

    @Test func subscriptionPresencesGoToTheBareJIDAndAreReadFromUsers() {
        #expect(SubscriptionPresence.stanza(.subscribe, to: Self.bob.with(resource: "web")).xml()
                == #"<presence type="subscribe" to="2-77@chat.example"/>"#)
        let request = E("presence", attributes: [.init("type", "subscribe"), .init("from", "2-77@chat.example")])
        #expect(SubscriptionPresence(request) == SubscriptionPresence(.subscribe, userID: 2))
        #expect(SubscriptionPresence(E("presence", attributes: [.init("from", "2-77@chat.example")])) == nil, "available, not a subscription")
        #expect(SubscriptionPresence(E("presence", attributes: [.init("type", "subscribed"), .init("from", "chat.example")])) == nil)
    }

    // MARK: privacy lists

    @Test func aBlockingListIsWrittenAsQuickBloxsSDKsWriteIt() {
        let list = PrivacyList.blocking([2], name: "blockedusers", appID: 77, domain: "chat.example")
        #expect(PrivacyQuery.stanza(.store(list), id: "1").xml() == """
            <iq type="set" id="privacyset-1"><query xmlns="jabber:iq:privacy"><list name="blockedusers">\
            <item type="jid" value="2-77@chat.example" action="deny" order="1"><message/><presence-in/><presence-out/><iq/></item>\
            <item type="jid" value="muc.chat.example/2" action="deny" order="2"><message/><presence-in/><presence-out/><iq/></item>\
            </list></query></iq>
            """)
        let mutual = PrivacyList.blocking([2], name: "blockedusers", appID: 77, domain: "chat.example", mutual: true)
        #expect(mutual.rules.allSatisfy { $0.kinds.isEmpty && !$0.allows }, "a mutual block names no kind")
        #expect(mutual.blockedUserIDs == [2], "the room nick's rule names no user")
    }

    @Test func requestsForNamesActiveAndDefault() {
        #expect(PrivacyQuery.stanza(.names, id: "1").xml() == #"<iq type="get" id="privacynames-1"><query xmlns="jabber:iq:privacy"/></iq>"#)
        #expect(PrivacyQuery.stanza(.list("b"), id: "2").xml()
                == #"<iq type="get" id="privacylist-2"><query xmlns="jabber:iq:privacy"><list name="b"/></query></iq>"#)
        #expect(PrivacyQuery.stanza(.delete("b"), id: "3").xml()
                == #"<iq type="set" id="privacyset-3"><query xmlns="jabber:iq:privacy"><list name="b"/></query></iq>"#)
        #expect(PrivacyQuery.stanza(.default("b"), id: "4").xml()
                == #"<iq type="set" id="privacyset-4"><query xmlns="jabber:iq:privacy"><default name="b"/></query></iq>"#)
        #expect(PrivacyQuery.stanza(.active(nil), id: "5").xml()
                == #"<iq type="set" id="privacyset-5"><query xmlns="jabber:iq:privacy"><active/></query></iq>"#, "declines")
    }

    @Test func answersAreReadByWhatWasAsked() {
        let names = Self.iq("result", id: "privacynames-1", [Self.query("jabber:iq:privacy", [
            E("active", attributes: [.init("name", "b")]), E("default", attributes: [.init("name", "b")]),
            E("list", attributes: [.init("name", "b")]), E("list", attributes: [.init("name", "old")])])])
        #expect(PrivacyAnswer(names, ownJID: Self.me) == .names(id: "1", lists: ["b", "old"], active: "b", default: "b"))
        let oneName = Self.iq("result", id: "privacynames-2", [Self.query("jabber:iq:privacy", [E("list", attributes: [.init("name", "b")])])])
        #expect(PrivacyAnswer(oneName, ownJID: Self.me) == .names(id: "2", lists: ["b"], active: nil, default: nil),
                "one list and nothing active is still a list of names")
        let sdkList = Self.iq("result", id: "privacylist-3", [Self.query("jabber:iq:privacy", [E("list", attributes: [.init("name", "b")], children: [
            E("item", attributes: [.init("type", "jid"), .init("value", "3-77@chat.example"), .init("action", "deny"), .init("order", "2")]),
            E("item", attributes: [.init("type", "jid"), .init("value", "2-77@chat.example"), .init("action", "deny"), .init("order", "1")],
              children: [E("message")]),
            E("item", attributes: [.init("type", "jid"), .init("value", "4-77@chat.example"), .init("action", "allow"), .init("order", "3")]),
        ])])])
        guard case .list(let id, let list)? = PrivacyAnswer(sdkList, ownJID: Self.me) else {
            Issue.record("not read as a list")
            return
        }
        #expect(id == "3" && list.name == "b")
        #expect(list.rules.map(\.order) == [1, 2, 3], "rules by order")
        #expect(list.blockedUserIDs == [2, 3], "denied users in rule order; an allow rule blocks nobody")
        #expect(PrivacyAnswer(Self.iq("result", id: "privacyset-4", []), ownJID: Self.me) == .done(id: "4"))
        #expect(PrivacyAnswer(Self.iq("error", id: "privacyset-5", [Self.error("conflict")]), ownJID: Self.me)
                == .refused(id: "5", condition: "conflict"))
        #expect(PrivacyAnswer(Self.iq("result", id: "roster1", []), ownJID: Self.me) == nil, "not ours")
    }

    @Test func aMalformedListIsRefusedNotHalfRead() {
        let badOrder = Self.iq("result", id: "privacylist-1", [Self.query("jabber:iq:privacy", [E("list", attributes: [.init("name", "b")], children: [
            E("item", attributes: [.init("type", "jid"), .init("value", "2-77@chat.example"), .init("action", "deny"), .init("order", "-1")])])])])
        #expect(PrivacyAnswer(badOrder, ownJID: Self.me) == .refused(id: "1", condition: "bad-request"))
        let unknownKind = Self.iq("result", id: "privacylist-2", [Self.query("jabber:iq:privacy", [E("list", attributes: [.init("name", "b")], children: [
            E("item", attributes: [.init("action", "deny"), .init("order", "1")], children: [E("everything")])])])])
        #expect(PrivacyAnswer(unknownKind, ownJID: Self.me) == .refused(id: "2", condition: "bad-request"))
    }

    @Test func aListChangePushCountsOnlyFromTheServer() {
        let push = Self.iq("set", id: "privacy-push-1", [Self.query("jabber:iq:privacy", [E("list", attributes: [.init("name", "b")])])])
        #expect(PrivacyAnswer(push, ownJID: Self.me) == .changed("b"))
        let forged = Self.iq("set", id: "x", from: "2-77@chat.example/web",
                             [Self.query("jabber:iq:privacy", [E("list", attributes: [.init("name", "b")])])])
        #expect(PrivacyAnswer(forged, ownJID: Self.me) == nil)
    }
}
