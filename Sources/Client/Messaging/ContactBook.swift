import XMPPTransport

/// One person of the contact list as a session knows them: their roster item (RFC 6121 §2)
/// and whether a request of theirs waits for the user's answer.
package struct Contact: Sendable, Equatable {
    package var userID: Int
    /// Whose presence goes where (`to`: the user sees the contact's; `from`: the contact the user's).
    package var subscription: RosterItem.Subscription
    /// The user asked to see the contact's presence and has no answer yet (`ask="subscribe"`).
    package var isRequested: Bool
    /// The contact asked to see the user's presence and the user has not answered.
    package var asksYou: Bool
    /// In the roster; false for a request alone.
    package var isListed: Bool

    package init(userID: Int, subscription: RosterItem.Subscription, isRequested: Bool = false, asksYou: Bool = false,
                 isListed: Bool = true) {
        self.userID = userID; self.subscription = subscription; self.isRequested = isRequested
        self.asksYou = asksYou; self.isListed = isListed
    }

    /// The user receives the contact's presence.
    package var seesThem: Bool { subscription == .to || subscription == .both }
}

/// The contact list as a session learns it (docs/protocol.md §7, "Contact lists"): the roster
/// the server sent and pushed since, and the subscription requests waiting for an answer
/// (the server redelivers those at each login, RFC 6121 §3.1.3). Pure: fed the connection's
/// events, it says what they mean; whoever owns the link writes what is to be written.
package struct ContactBook: Sendable, Equatable {
    /// What a subscription presence from another user tells.
    package enum News: Sendable, Equatable {
        /// They ask to see the user's presence (a contact request).
        case requested
        /// They accepted the user's request.
        case accepted
        /// They refused the user's request, or stopped letting the user see their presence.
        case rejected
        /// They withdrew their request, or stopped seeing the user's presence.
        case withdrawn
        /// The user answered their request (from this session).
        case answered(accepted: Bool)
    }

    package private(set) var items: [Int: RosterItem] = [:]
    /// Users whose requests wait for the user's answer, in the order they came.
    package private(set) var requests: [Int] = []
    /// The whole roster has come at least once.
    package private(set) var isLoaded = false

    package init() {}

    /// A roster answer or push: the list replaced, or one item changed.
    package mutating func apply(_ update: RosterUpdate) {
        switch update {
        case .roster(let all):
            items = Dictionary(all.map { ($0.userID, $0) }) { $1 }
            isLoaded = true
        case .push(let item):
            items[item.userID] = item.subscription == .remove ? nil : item
            // They see the user now, or are gone: their request was answered (maybe from another device).
            if item.subscription != .none && item.subscription != .to { requests.removeAll { $0 == item.userID } }
        case .done, .refused:
            break
        }
    }

    /// A subscription presence from another user: what it tells, or nil when it tells nothing
    /// new (a request heard again, one the server answers itself).
    package mutating func record(_ presence: SubscriptionPresence) -> News? {
        let user = presence.userID
        switch presence.kind {
        case .subscribe:
            let sendsAlready = items[user].map { $0.subscription == .from || $0.subscription == .both } ?? false
            guard !sendsAlready, !requests.contains(user) else { return nil }
            requests.append(user)
            return .requested
        case .subscribed:
            return .accepted
        case .unsubscribed:
            return .rejected
        case .unsubscribe:
            requests.removeAll { $0 == user }
            return .withdrawn
        }
    }

    /// Requests to grant without asking: from users who already let the user see them, so
    /// who accepted the user's request and ask back, as QuickBlox's SDKs grant them.
    package var dueApprovals: [Int] {
        guard isLoaded else { return [] }
        return requests.filter { items[$0]?.subscription == .to }
    }

    /// The user answered `user`'s request.
    package mutating func answered(_ user: Int) { requests.removeAll { $0 == user } }

    /// `user` as the list has them: in the roster, or only asking; nil when neither.
    package func contact(_ user: Int) -> Contact? {
        let asks = requests.contains(user)
        guard let item = items[user] else {
            return asks ? Contact(userID: user, subscription: .none, asksYou: true, isListed: false) : nil
        }
        return Contact(userID: user, subscription: item.subscription, isRequested: item.isAwaitingApproval, asksYou: asks)
    }

    /// Everyone in the roster or asking, by user id.
    package var contacts: [Contact] {
        Set(items.keys).union(requests).sorted().compactMap(contact)
    }
}
