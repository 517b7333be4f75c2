import Testing
import XMPPTransport
@testable import Messaging

/// The contact list through the chat engine, against a scripted link (ChatEngine+Contacts.swift):
/// the roster asked after a connect, requests told once it came (one from someone who accepted
/// ours granted instead), answers to ours told, and the view's answers written as
/// `contacts accept` and `reject` write them.
@Suite("Chat engine: contacts", .serialized)
struct ChatEngineContactsTests {
    typealias F = ListenerFixture

    static func news(_ events: [ChatEngineEvent]) -> [String] {
        events.compactMap { if case .contact(let user, let news) = $0 { "\(user) \(news)" } else { nil } }
    }

    /// Connected, with bob (2) letting us see him and carol (3) asking: both requests came at login.
    static func connected() throws -> F {
        let f = try F()
        f.link.answer = { request in
            guard case .roster = request else { return [] }
            return [.roster(.roster([RosterItem(userID: 2, subscription: .to)]))]
        }
        try f.link.connect()
        f.link.incoming = [.subscription(SubscriptionPresence(.subscribe, userID: 2)), .subscription(SubscriptionPresence(.subscribe, userID: 3))]
        f.engine.askContacts()
        f.engine.pump()
        return f
    }

    @Test func requestsAtLoginAreToldOnceTheRosterCameAndOneFromSomeoneWhoAcceptedOursIsGranted() throws {
        let f = try Self.connected()
        #expect(f.link.contactRequests == [.roster(id: "contact-1"), .subscription(.subscribed, to: 2)])
        #expect(Self.news(f.heard.events) == ["3 requested"])
        // Heard again after a reconnect: not told twice.
        f.link.incoming = [.subscription(SubscriptionPresence(.subscribe, userID: 3))]
        f.engine.pump()
        #expect(Self.news(f.heard.events) == ["3 requested"])
    }

    @Test func answersToOursAndWithdrawalsAreTold() throws {
        let f = try Self.connected()
        f.link.incoming = [
            .subscription(SubscriptionPresence(.subscribed, userID: 4)),
            .subscription(SubscriptionPresence(.unsubscribed, userID: 5)),
            .subscription(SubscriptionPresence(.unsubscribe, userID: 3)),
        ]
        f.engine.pump()
        #expect(Self.news(f.heard.events) == ["3 requested", "4 accepted", "5 rejected", "3 withdrawn"])
    }

    @Test func theViewsAcceptWritesSubscribedAndSubscribeAndARejectUnsubscribed() throws {
        let f = try Self.connected()
        try f.engine.perform(.answerContact(userID: 3, accept: true))
        #expect(Array(f.link.contactRequests.suffix(2)) == [.subscription(.subscribed, to: 3), .subscription(.subscribe, to: 3)])
        #expect(Self.news(f.heard.events).last == "3 answered(accepted: true)")
        // Answered: a second answer is refused, and nothing is written.
        try f.engine.perform(.answerContact(userID: 3, accept: false))
        #expect(f.link.contactRequests.count == 4)
        #expect(f.notices.last == "user 3 has not asked to be your contact ('chatctl contacts' lists the requests waiting for your answer)")
    }

    @Test func aCommandThatOnlySendsAsksNoRoster() throws {
        let f = try F(settings: ChatEngine.Settings())
        try f.link.connect()
        f.engine.askContacts()
        #expect(f.link.contactRequests.isEmpty)
    }
}
