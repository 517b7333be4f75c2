#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A push notification event (docs/protocol.md §14): the common fields typed, every field
/// as received in `raw`.
package struct QBPushEvent: Sendable, Equatable {
    package var id: Int
    /// `one_shot`, `fixed_date` or `period_date`.
    package var eventType: String?
    /// `notification_channel.name`: `apns`, `gcm`, `email`…; nil for a universal push.
    package var channel: String?
    /// `development` or `production`.
    package var environment: String?
    package var active: Bool?
    /// `occured_count`, as the service spells it.
    package var occurredCount: Int?
    package var name: String?
    package var message: String?
    package var createdAt: Date?
    /// Only from `GET /events/{id}/status.json`: `scheduled`, `sent`, `no_recipients`, `inactive`.
    package var status: String?
    /// Only from the status: the devices it reached in all.
    package var deliveriesCount: Int?
    package var raw: [String: JSONValue]

    /// From an event object, bare or as `{"event":{…}}`; nil without an `id`.
    package init?(json: JSONValue) {
        let event = json.unwrapping("event")
        guard let members = event.objectValue, let id = event["id"]?.looseInt else { return nil }
        self.id = id
        eventType = event["event_type"]?.looseString
        channel = event["notification_channel"]?["name"]?.looseString
        environment = event["environment"]?.looseString
        active = event["active"]?.boolValue ?? event["active"]?.looseInt.map { $0 != 0 }
        occurredCount = event["occured_count"]?.looseInt
        name = event["name"]?.looseString
        message = event["message"]?.looseString
        createdAt = event["created_at"]?.looseDate
        status = event["status"]?.looseString
        deliveriesCount = event["deliveries_count"]?.looseInt
        raw = members
    }
}
