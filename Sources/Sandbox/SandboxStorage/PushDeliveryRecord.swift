import SandboxClock
import SandboxJSON

/// One push the sandbox made in place of APNs, FCM or mail: which event, to whose device,
/// through which subscription, with what payload, when.
package struct PushDeliveryRecord {
    package var id: Int
    package var eventId: Int
    package var subscriptionId: Int
    package var userId: Int
    package var channel: PushChannel
    package var environment: PushEnvironment
    package var platform: String
    package var udid: String
    package var token: String
    /// What the push service would have been handed: for APNs and FCM a JSON object, for
    /// the others the text.
    package var payload: String
    package var deliveredAt: Double

    package var json: JSONNode {
        let payloadNode: JSONNode
        if (channel == .apns || channel == .apnsVoIP || channel == .gcm), let parsed = try? JSONParser.parse(Array(payload.utf8)) {
            payloadNode = parsed
        } else {
            payloadNode = .string(payload)
        }
        return .object([
            ("id", .int(id)),
            ("event_id", .int(eventId)),
            ("subscription_id", .int(subscriptionId)),
            ("user_id", .int(userId)),
            ("notification_channel", .string(channel.rawValue)),
            ("environment", .string(environment.rawValue)),
            ("platform", .string(platform)),
            ("udid", .string(udid)),
            ("client_identification_sequence", .string(token)),
            ("payload", payloadNode),
            ("delivered_at", .string(SandboxTime.iso8601(deliveredAt))),
        ])
    }
}
