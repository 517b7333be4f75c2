import Diagnostics
import XMPPTransport

/// `chatctl contacts` over a brief chat connection (docs/protocol.md §7, "Contact lists"):
/// the roster asked for (the requests waiting come at login, before its answer), requests
/// from people who already accepted the user's granted as QuickBlox's SDKs grant them, one
/// change written as the SDKs write it, and the roster asked for again, which the server
/// answers only after what came before it: the list as it is after the change. Every wait
/// is bounded. The decisions are `plan` and `record`, pure; `ContactExchange.Runner` does the I/O.
package struct ContactExchange {
    /// A change to the contact list.
    package enum Change: Sendable, Equatable {
        /// Roster set, then `subscribe` (asks to see their presence).
        case add
        /// `subscribed` and `subscribe`: they see the user, and the user asks to see them.
        case accept
        /// `unsubscribed`: their request refused.
        case reject
        /// Roster set with `subscription="remove"`: out of the list, both ways.
        case remove
    }

    /// One request to write.
    package enum Step: Sendable, Equatable {
        case setItem(Int, remove: Bool)
        case subscription(SubscriptionPresence.Kind, to: Int)
    }

    package private(set) var book = ContactBook()
    /// Roster answers received (each answers our gets in order: they carry no id we keep).
    package private(set) var rostersReceived = 0
    /// The answers to our roster sets, by id.
    package private(set) var answers: [String: RosterUpdate] = [:]

    package init() {}

    /// Takes in one event of the connection; what a subscription presence tells is returned.
    @discardableResult
    package mutating func record(_ event: ChatEvent) -> ContactBook.News? {
        switch event {
        case .roster(let update):
            book.apply(update)
            switch update {
            case .roster: rostersReceived += 1
            case .done(let id), .refused(let id, _): answers[id] = update
            case .push: break
            }
        case .subscription(let presence):
            return book.record(presence)
        default:
            break
        }
        return nil
    }

    /// The requests `change` of `user` (named `label` in errors) writes, or why it cannot be
    /// made: a usage error that changes nothing.
    package func plan(_ change: Change, of user: Int, label: String) throws(Failure) -> [Step] {
        let contact = book.contact(user)
        switch change {
        case .add:
            if let contact, contact.asksYou {
                throw Failure(.invalidInput, "\(label) already asked to be your contact", hint: "accept it: chatctl contacts accept \(label)")
            }
            if let contact, contact.seesThem || contact.isRequested {
                let what = contact.seesThem ? "\(label) is already a contact" : "you already asked \(label), who has not answered yet"
                throw Failure(.invalidInput, what, hint: "'chatctl contacts' lists your contacts")
            }
            return [.setItem(user, remove: false), .subscription(.subscribe, to: user)]
        case .accept, .reject:
            guard let contact, contact.asksYou else {
                throw Failure(.invalidInput, "\(label) has not asked to be your contact",
                              hint: "'chatctl contacts' lists the requests waiting for your answer")
            }
            if change == .reject { return [.subscription(.unsubscribed, to: user)] }
            return [.subscription(.subscribed, to: user)] + (contact.seesThem ? [] : [.subscription(.subscribe, to: user)])
        case .remove:
            guard let contact, contact.isListed else {
                let hint = contact?.asksYou == true ? "they asked to be: chatctl contacts reject \(label)" : "'chatctl contacts' lists them"
                throw Failure(.invalidInput, "\(label) is not in your contacts", hint: hint)
            }
            return [.setItem(user, remove: true)]
        }
    }

    /// `step` was written: a `subscribed` or `unsubscribed` answers their request (the server
    /// pushes no item for a request refused that was never in the roster).
    package mutating func wrote(_ step: Step) {
        if case .subscription(let kind, let user) = step, kind == .subscribed || kind == .unsubscribed { book.answered(user) }
    }

    /// The user's requests that the exchange grants by itself (`ContactBook.dueApprovals`).
    package var dueSteps: [Step] { book.dueApprovals.map { .subscription(.subscribed, to: $0) } }
}

extension ContactExchange {
    /// The exchange over a link: connects, writes, waits for each answer at most `timeout`
    /// seconds, disconnects when closed. Confined to its link's thread.
    package final class Runner {
        package let link: any ChatLinking
        package private(set) var exchange = ContactExchange()
        let timeout: Double

        package init(link: any ChatLinking, timeout: Double) {
            self.link = link
            self.timeout = timeout
        }

        deinit { close() }

        /// Connects and reads the list, granting what is due (then reading it again).
        package func open() throws(Failure) {
            link.onEvent = { [unowned self] in exchange.record($0) }
            try link.connect()
            try reload()
            let due = exchange.dueSteps
            guard !due.isEmpty else { return }
            try write(due)
            try reload()
        }

        /// Makes `change` of `user` and returns them as the list has them after it (nil: gone).
        package func make(_ change: Change, of user: Int, label: String) throws(Failure) -> Contact? {
            let steps = try exchange.plan(change, of: user, label: label)
            try write(steps, label: label)
            try reload()
            return exchange.book.contact(user)
        }

        /// What the server says of the presence of those the user sees, at most `timeout` seconds.
        package func presence(now: Int) -> [Int: PeerPresence] {
            let seen = exchange.book.contacts.filter(\.seesThem).map(\.userID)
            return (try? PresenceSurvey.ask(over: link, users: seen, timeout: timeout, now: now)) ?? [:]
        }

        package func close() {
            link.onEvent = nil
            link.disconnect()
        }

        /// Asks for the roster and waits for it.
        private func reload() throws(Failure) {
            let wanted = exchange.rostersReceived + 1
            let id: String
            do { id = try link.requestRoster() } catch { throw Failure(describing: error) }
            try wait(for: "the contact list") { $0.rostersReceived >= wanted || $0.answers[id] != nil }
            if case .refused(_, let condition)? = exchange.answers[id] {
                throw Failure(.failure, "the chat server would not send the contact list (\(condition))")
            }
        }

        /// Writes `steps`; a roster set is waited for, and a refused one is the failure.
        private func write(_ steps: [Step], label: String = "") throws(Failure) {
            for step in steps {
                switch step {
                case .subscription(let kind, let user):
                    do { try link.sendSubscription(kind, to: user) } catch { throw Failure(describing: error) }
                    exchange.wrote(step)
                case .setItem(let user, let remove):
                    let id: String
                    do { id = try link.setRosterItem(user, name: nil, remove: remove) } catch { throw Failure(describing: error) }
                    try wait(for: "the change to your contacts") { $0.answers[id] != nil }
                    if case .refused(_, let condition)? = exchange.answers[id] {
                        let what = remove ? "remove \(label) from" : "add \(label) to"
                        throw Failure(.failure, "the chat server would not \(what) your contacts (\(condition))")
                    }
                }
            }
        }

        private func wait(for what: String, until done: @escaping (ContactExchange) -> Bool) throws(Failure) {
            link.pump(timeout: timeout, sliceMilliseconds: 20) { [unowned self] in done(exchange) || !link.isConnected }
            guard done(exchange) else {
                if !link.isConnected { throw Failure(.temporary, "the chat connection was lost while waiting for \(what)", hint: "try again") }
                let seconds = timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
                throw Failure(.temporary, "the chat server did not answer with \(what) within \(seconds) s", hint: "try again")
            }
        }
    }
}
