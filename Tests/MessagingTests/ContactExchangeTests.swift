import Testing
import Diagnostics
import XMPPTransport
@testable import Messaging

/// `chatctl contacts`' exchange over a scripted link (ContactExchange.swift): what each change
/// writes, in order, the server's answers applied, a refusal and a silence reported, and bad
/// input refused before anything is written. We are user 1; bob is 2, carol 3.
@Suite("Contact exchange")
struct ContactExchangeTests {
    /// A server that keeps one roster for user 1 and answers as the sandbox does.
    final class Server {
        var roster: [RosterItem]
        /// The requests waiting for our answer, heard at login.
        var waiting: [Int]
        var refuseSets: String?
        var silent = false

        init(roster: [RosterItem] = [], waiting: [Int] = []) { self.roster = roster; self.waiting = waiting }

        func answer(_ request: ScriptedChatLink.ContactRequest) -> [ChatEvent] {
            if silent { return [] }
            switch request {
            case .roster:
                return [.roster(.roster(roster))]
            case .rosterItem(let user, _, let remove, let id):
                if let refuseSets { return [.roster(.refused(id: id, condition: refuseSets))] }
                roster.removeAll { $0.userID == user }
                if !remove { roster.append(RosterItem(userID: user, subscription: .none)) }
                return [.roster(.done(id: id))]
            case .subscription(let kind, let user):
                let index = roster.firstIndex { $0.userID == user }
                var item = index.map { roster[$0] } ?? RosterItem(userID: user, subscription: .none)
                switch kind {
                case .subscribe: if item.subscription == .none || item.subscription == .from { item.isAwaitingApproval = true }
                case .subscribed: item.subscription = item.subscription == .to ? .both : .from
                case .unsubscribed, .unsubscribe: break
                }
                if kind == .unsubscribed && index == nil { return [] }
                if let index { roster[index] = item } else { roster.append(item) }
                return [.roster(.push(item))]
            case .privacy:
                return []
            }
        }
    }

    static func runner(_ server: Server, timeout: Double = 1) -> (ContactExchange.Runner, ScriptedChatLink) {
        let link = ScriptedChatLink(me: 1)
        link.answer = server.answer
        // The requests waiting are the server's answer to the initial presence, before anything we ask.
        link.incoming = server.waiting.map { .subscription(SubscriptionPresence(.subscribe, userID: $0)) }
        return (ContactExchange.Runner(link: link, timeout: timeout), link)
    }

    @Test func addWritesTheRosterSetThenSubscribeAndReadsTheListAgain() throws {
        let server = Server()
        let (runner, link) = Self.runner(server)
        try runner.open()
        let after = try runner.make(.add, of: 2, label: "@bob")
        #expect(link.contactRequests == [
            .roster(id: "contact-1"),
            .rosterItem(2, name: nil, remove: false, id: "contact-2"),
            .subscription(.subscribe, to: 2),
            .roster(id: "contact-4"),
        ])
        #expect(after == Contact(userID: 2, subscription: .none, isRequested: true))
        runner.close()
        #expect(!link.isConnected)
    }

    @Test func aRequestWaitingAtLoginIsListedAndAcceptedWithSubscribedAndSubscribe() throws {
        let server = Server(waiting: [3])
        let (runner, link) = Self.runner(server)
        try runner.open()
        #expect(runner.exchange.book.contacts == [Contact(userID: 3, subscription: .none, asksYou: true, isListed: false)])
        let after = try runner.make(.accept, of: 3, label: "@carol")
        #expect(Array(link.contactRequests.dropFirst()) == [
            .subscription(.subscribed, to: 3), .subscription(.subscribe, to: 3), .roster(id: "contact-4"),
        ])
        #expect(after == Contact(userID: 3, subscription: .from, isRequested: true))
    }

    @Test func rejectWritesUnsubscribedAndTheRequestIsGone() throws {
        let (runner, link) = Self.runner(Server(waiting: [3]))
        try runner.open()
        #expect(try runner.make(.reject, of: 3, label: "@carol") == nil)
        #expect(Array(link.contactRequests.dropFirst()) == [.subscription(.unsubscribed, to: 3), .roster(id: "contact-3")])
    }

    @Test func removeWritesTheRemovingSet() throws {
        let (runner, link) = Self.runner(Server(roster: [RosterItem(userID: 2, subscription: .both)]))
        try runner.open()
        #expect(try runner.make(.remove, of: 2, label: "@bob") == nil)
        #expect(Array(link.contactRequests.dropFirst()) == [.rosterItem(2, name: nil, remove: true, id: "contact-2"), .roster(id: "contact-3")])
    }

    @Test func aRequestFromSomeoneWhoAcceptedOursIsGrantedOnOpening() throws {
        let server = Server(roster: [RosterItem(userID: 2, subscription: .to)], waiting: [2])
        let (runner, link) = Self.runner(server)
        try runner.open()
        #expect(link.contactRequests == [.roster(id: "contact-1"), .subscription(.subscribed, to: 2), .roster(id: "contact-3")])
        #expect(runner.exchange.book.contacts == [Contact(userID: 2, subscription: .both)])
    }

    @Test func aRefusedSetIsTheFailureAndNothingFollowsIt() throws {
        let server = Server()
        server.refuseSets = "not-allowed"
        let (runner, link) = Self.runner(server)
        try runner.open()
        #expect(throws: Failure(.failure, "the chat server would not add @bob to your contacts (not-allowed)")) {
            try runner.make(.add, of: 2, label: "@bob")
        }
        #expect(link.contactRequests.count == 2, "no subscribe after the refused set")
    }

    @Test func noAnswerWithinTheTimeoutIsATemporaryFailure() throws {
        let server = Server()
        server.silent = true
        let (runner, _) = Self.runner(server, timeout: 0.5)
        let failure = #expect(throws: Failure.self) { try runner.open() }
        #expect(failure?.kind == .temporary)
        #expect(failure?.message == "the chat server did not answer with the contact list within 0.5 s")
    }

    @Test(arguments: [
        (ContactExchange.Change.add, "@bob is already a contact"),
        (.accept, "@bob has not asked to be your contact"),
        (.reject, "@bob has not asked to be your contact"),
    ])
    func changesThatCannotBeMadeWriteNothing(change: ContactExchange.Change, message: String) throws {
        let (runner, link) = Self.runner(Server(roster: [RosterItem(userID: 2, subscription: .both)]))
        try runner.open()
        let failure = #expect(throws: Failure.self) { try runner.make(change, of: 2, label: "@bob") }
        #expect(failure?.kind == .invalidInput)
        #expect(failure?.message == message)
        #expect(link.contactRequests == [.roster(id: "contact-1")])
    }

    @Test func addingSomeoneWhoAskedOrRemovingAStrangerWritesNothing() throws {
        let (runner, link) = Self.runner(Server(waiting: [3]))
        try runner.open()
        let asked = #expect(throws: Failure.self) { try runner.make(.add, of: 3, label: "@carol") }
        #expect(asked?.description == "@carol already asked to be your contact (accept it: chatctl contacts accept @carol)")
        let stranger = #expect(throws: Failure.self) { try runner.make(.remove, of: 2, label: "@bob") }
        #expect(stranger?.description == "@bob is not in your contacts ('chatctl contacts' lists them)")
        #expect(link.contactRequests == [.roster(id: "contact-1")])
    }

    @Test func presenceIsAskedOfThoseWeSeeOnly() throws {
        let server = Server(roster: [RosterItem(userID: 2, subscription: .both), RosterItem(userID: 3, subscription: .from)])
        let (runner, link) = Self.runner(server)
        try runner.open()
        link.incoming = [.lastActivity(LastActivity(userID: 2, seconds: 0))]
        #expect(runner.presence(now: 1000) == [2: .online])
        #expect(link.lastActivityAsked == [2])
    }
}

/// The book's reading of subscription presences and pushes (ContactBook.swift).
@Suite("Contact book")
struct ContactBookTests {
    @Test func aRequestIsToldOnceAndAnAnswerFromAnotherDeviceEndsIt() {
        var book = ContactBook()
        #expect(book.record(SubscriptionPresence(.subscribe, userID: 2)) == .requested)
        #expect(book.record(SubscriptionPresence(.subscribe, userID: 2)) == nil, "redelivered after a reconnect")
        book.apply(.push(RosterItem(userID: 2, subscription: .from)))
        #expect(book.requests.isEmpty)
        #expect(book.record(SubscriptionPresence(.subscribe, userID: 2)) == nil, "they see us already: the server answers")
    }

    @Test func nothingIsDueBeforeTheRosterCame() {
        var book = ContactBook()
        _ = book.record(SubscriptionPresence(.subscribe, userID: 2))
        #expect(book.dueApprovals.isEmpty)
        book.apply(.roster([RosterItem(userID: 2, subscription: .to)]))
        #expect(book.dueApprovals == [2])
    }

    @Test func answersAndWithdrawalsAreNews() {
        var book = ContactBook()
        #expect(book.record(SubscriptionPresence(.subscribed, userID: 2)) == .accepted)
        #expect(book.record(SubscriptionPresence(.unsubscribed, userID: 2)) == .rejected)
        _ = book.record(SubscriptionPresence(.subscribe, userID: 3))
        #expect(book.record(SubscriptionPresence(.unsubscribe, userID: 3)) == .withdrawn)
        #expect(book.contact(3) == nil)
    }
}
