import SandboxClock
import SandboxJSON

/// `push` or `email` (`event[notification_type]`).
package enum PushNotificationType: String, Sendable {
    case push
    case email
}

/// When an event occurs (`event[event_type]`): once now, once at `date`, or every `period`
/// from `date` (until `end_date`, if any).
package enum PushEventType: String, Sendable {
    case oneShot = "one_shot"
    case fixedDate = "fixed_date"
    case periodDate = "period_date"
}

/// What an event is, as created or changed: everything but its life so far.
package struct PushEventDraft {
    package var notificationType: PushNotificationType
    /// nil: a universal push (every push channel); ignored for mail.
    package var pushType: PushChannel?
    package var environment: PushEnvironment
    package var eventType: PushEventType
    /// As the event keeps it (docs/protocol.md §14): a platform push in its platform's form.
    package var message: String
    package var name: String?
    /// Unix seconds.
    package var date: Int?
    package var endDate: Int?
    package var period: Int?
    package var recipients: PushRecipients

    package init(notificationType: PushNotificationType, pushType: PushChannel?, environment: PushEnvironment,
                 eventType: PushEventType, message: String, name: String?, date: Int?, endDate: Int?, period: Int?,
                 recipients: PushRecipients) {
        self.notificationType = notificationType; self.pushType = pushType; self.environment = environment
        self.eventType = eventType; self.message = message; self.name = name; self.date = date
        self.endDate = endDate; self.period = period; self.recipients = recipients
    }

    /// The one channel the event goes to: its push type, or mail; nil for a universal push.
    package var channel: PushChannel? { notificationType == .email ? .email : pushType }
}

/// A stored event and how far it got.
package struct PushEventRecord {
    package var id: Int
    /// Who created it (0: an application session).
    package var userId: Int
    package var draft: PushEventDraft
    /// False once it has nothing more to do (a one-shot or fixed-date event that occurred, a
    /// periodic one past its end); `PUT` with `active` true makes it occur again.
    package var active: Bool
    package var occurredCount: Int
    /// When it occurs next (unix seconds); nil when it will not by itself.
    package var nextAt: Int?
    package var lastOccurredAt: Double?
    /// Devices reached when it last occurred.
    package var lastDeliveryCount: Int
    package var createdAt: Double
    package var updatedAt: Double

    /// `scheduled` (it will occur at `nextAt`), `sent` (it occurred and reached a device),
    /// `no_recipients` (it occurred and reached none) or `inactive` (it never occurred and will
    /// not by itself).
    package var status: String {
        if active && nextAt != nil { return "scheduled" }
        if occurredCount == 0 { return "inactive" }
        return lastDeliveryCount > 0 ? "sent" : "no_recipients"
    }

    /// The `event` object as the hosted service answers it, with the reference's
    /// `subscribers_selector`. `date` and `end_date` are unix seconds, as the service sends them.
    package func json(applicationId: Int) -> JSONNode {
        .object([
            ("id", .int(id)),
            ("event_type", .string(draft.eventType.rawValue)),
            ("message", .string(draft.message)),
            ("date", .optionalInt(draft.date)),
            ("period", .optionalInt(draft.period)),
            ("name", .optionalString(draft.name)),
            ("occured_count", .int(occurredCount)),
            ("created_at", .string(SandboxTime.iso8601(createdAt))),
            ("updated_at", .string(SandboxTime.iso8601(updatedAt))),
            ("end_date", .optionalInt(draft.endDate)),
            ("active", .bool(active)),
            ("application_id", .int(applicationId)),
            ("user_id", .int(userId)),
            ("kind", .string("API")),
            ("environment", .string(draft.environment.rawValue)),
            ("notification_channel", draft.channel.map { .object([("name", .string($0.rawValue))]) } ?? .null),
            ("subscribers_selector", draft.recipients.selector(environment: draft.environment)),
        ])
    }
}
