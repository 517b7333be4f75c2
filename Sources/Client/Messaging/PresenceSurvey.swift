import Diagnostics
import XMPPTransport

/// Who of some users is online now, as `chatctl users` shows it (docs/protocol.md §7,
/// "Presence and last activity"): asked over a brief chat connection, each user's last
/// activity (XEP-0012; 0 seconds: online), with any presence heard meanwhile. A user the
/// server will not tell about (`forbidden`: no subscription, on servers that want one) is left out, as is one never
/// answered; one never seen online is `.offline`.
package struct PresenceSurvey {
    /// Asked and not answered yet.
    package private(set) var waiting: Set<Int>
    /// What was learnt, by user.
    package private(set) var found: [Int: PeerPresence] = [:]
    /// Unix seconds now: a last activity's seconds ago become a time.
    let now: Int

    package init(asking users: [Int], now: Int) {
        waiting = Set(users)
        self.now = now
    }

    package var isComplete: Bool { waiting.isEmpty }

    /// Takes in one event of the connection; others than presence and last activity are not its business.
    package mutating func record(_ event: ChatEvent) {
        switch event {
        case .presence(let presence):
            // Available is news; unavailable (one resource of several, maybe) is left to the answer.
            if presence.isAvailable { found[presence.userID] = .online }
        case .lastActivity(let answer):
            guard waiting.remove(answer.userID) != nil, found[answer.userID] != .online else { return }
            switch (answer.seconds, answer.errorCondition) {
            case (0?, _): found[answer.userID] = .online
            case (let seconds?, _): found[answer.userID] = .lastSeen(at: now - seconds)
            case (nil, "item-not-found"): found[answer.userID] = .offline
            default: break
            }
        default:
            break
        }
    }

    /// Connects `link`, asks about `users` (ourselves aside), and waits for every answer, at
    /// most `timeout` seconds once connected; then disconnects. A failure to connect is thrown.
    package static func run(over link: any ChatLinking, users: [Int], timeout: Double, now: Int) throws(Failure) -> [Int: PeerPresence] {
        guard users.contains(where: { $0 != link.me }) else { return [:] }
        defer {
            link.onEvent = nil
            link.disconnect()
        }
        try link.connect()
        return try ask(over: link, users: users, timeout: timeout, now: now)
    }

    /// Over a link already connected: asks about `users` (ourselves aside) and waits for every
    /// answer, at most `timeout` seconds. The link's own handler still hears every event, and
    /// has it back after.
    package static func ask(over link: any ChatLinking, users: [Int], timeout: Double, now: Int) throws(Failure) -> [Int: PeerPresence] {
        var survey = PresenceSurvey(asking: users.filter { $0 != link.me }, now: now)
        guard !survey.isComplete else { return [:] }
        let owner = link.onEvent
        link.onEvent = { event in
            owner?(event)
            survey.record(event)
        }
        defer { link.onEvent = owner }
        for user in survey.waiting.sorted() {
            do { try link.requestLastActivity(of: user) } catch { throw Failure(describing: error) }
        }
        link.pump(timeout: timeout, sliceMilliseconds: 20) { survey.isComplete || !link.isConnected }
        return survey.found
    }
}
