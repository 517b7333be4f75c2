import Diagnostics
import QuickBloxAPI

/// Push notifications for scripts (docs/protocol.md §14): the user's devices that get them, a
/// one-shot push to users and tags, the events the user created, and how far one of them got.
extension MessagingService {
    /// The user's subscribed devices, oldest first.
    package func pushSubscriptions() throws(Failure) -> [QBPushSubscription] {
        do { return try api.pushSubscriptions() } catch {
            throw Failure(describing: error, doing: "list push subscriptions")
        }
    }

    /// Sends `notification` (`POST /events.json`). A push that reaches no device is the
    /// server's 422 ("No recipients…"), said as such.
    package func sendPush(_ notification: QBPushNotification) throws(Failure) -> QBPushEvent {
        do {
            return try api.createPushEvent(notification)
        } catch {
            var failure = Failure(describing: error, doing: "send push")
            if error.status == 422, error.reasons.contains(where: { $0.hasPrefix("No recipients") || $0.hasPrefix("No one can receive") }) {
                let environment = notification.production ? "production" : "development"
                failure.hint = "none of the users has a device subscribed to \(notification.channel?.rawValue ?? "push notifications") "
                    + "in the \(environment) environment" + (notification.production ? "" : "; --production pushes to production ones")
            }
            throw failure
        }
    }

    /// One page of the events the user created, newest first.
    package func pushEvents(page: Int, perPage: Int) throws(Failure) -> QBPushEventPage {
        do { return try api.pushEvents(page: page, perPage: perPage) } catch {
            throw Failure(describing: error, doing: "list push events")
        }
    }

    /// One event with its status; an unknown one is bad input, another user's a refusal.
    package func pushEvent(id: Int) throws(Failure) -> QBPushEvent {
        do { return try api.pushEventStatus(id: id) } catch {
            if error.status == 404 { throw Failure(.invalidInput, "no push event \(id)", hint: "'chatctl push events' lists yours") }
            throw Failure(describing: error, doing: "read push event \(id)")
        }
    }
}
