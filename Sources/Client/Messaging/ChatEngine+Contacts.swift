import Diagnostics
import XMPPTransport

/// The contact list while chatting (docs/protocol.md §7, "Contact lists"): after each connect
/// a listener or the chat view asks for the roster, so the server pushes its changes; each
/// contact request heard, and each answer to the user's, is told (`.contact`), the sender's
/// name first. A request from someone who already accepted the user's is granted here, as
/// QuickBlox's SDKs grant it, and not told. The view answers requests (`answerContact`) with
/// the presences `chatctl contacts accept` and `reject` write (`ContactExchange.plan`).
extension ChatEngine {
    /// After a connect, for an engine that hears dialogs: the roster (its answer comes as `.roster`).
    func askContacts() {
        guard settings.dialogs != .none else { return }
        _ = try? link.requestRoster()
    }

    /// The first roster tells the requests that came before it (at login), but those it grants.
    func heard(_ update: RosterUpdate) {
        let first = !contacts.book.isLoaded
        contacts.record(.roster(update))
        grantDueRequests()
        if first && contacts.book.isLoaded {
            for user in contacts.book.requests { tellContact(user, .requested) }
        }
    }

    /// Until the roster came (when it was asked), a request waits in the book: it may be one to grant.
    func heard(_ presence: SubscriptionPresence) {
        guard presence.userID != link.me, let news = contacts.record(.subscription(presence)) else { return }
        if news == .requested && settings.dialogs != .none && !contacts.book.isLoaded { return }
        if contacts.book.dueApprovals.contains(presence.userID) { return grantDueRequests() }
        tellContact(presence.userID, news)
    }

    /// The user's answer to `user`'s request; a failure is told, not thrown (the view goes on).
    func answerContact(_ user: Int, accept: Bool) {
        do throws(Failure) {
            let label = service.displayNames([user])[user] ?? "user \(user)"
            let steps = try contacts.plan(accept ? .accept : .reject, of: user, label: label)
            try write(steps)
            tellContact(user, .answered(accepted: accept))
        } catch {
            emit(.notice(.failed(.answerContact, error)))
        }
    }

    private func grantDueRequests() {
        let due = contacts.dueSteps
        guard !due.isEmpty else { return }
        try? write(due)
    }

    private func write(_ steps: [ContactExchange.Step]) throws(Failure) {
        for step in steps {
            guard case .subscription(let kind, let user) = step else { continue }
            do { try link.sendSubscription(kind, to: user) } catch { throw Failure(describing: error) }
            contacts.wrote(step)
        }
    }

    private func tellContact(_ user: Int, _ news: ContactBook.News) {
        let learnt = names.learn([user], service: service, online: connected)
        if !learnt.isEmpty { emit(.names(learnt)) }
        emit(.contact(userID: user, news))
    }
}
