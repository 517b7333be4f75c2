import SandboxClock
import SandboxJSON

/// One push the sandbox made in place of APNs, FCM or mail: which event, to whose device,
/// through which subscription, with what payload, when.
package struct PushDeliveryRecord {
    package var id: Int
    package var eventId: Int
    package var subscriptionId: Int
    package var userId: Int
    package var device: PushDevice
    /// What the push service would have been handed: for APNs and FCM a JSON object, for
    /// the others the text.
    package var payload: String
    package var deliveredAt: Double

    package var json: JSONNode {
        let payloadNode: JSONNode
        if (device.channel == .apns || device.channel == .apnsVoIP || device.channel == .gcm), let parsed = try? JSONParser.parse(Array(payload.utf8)) {
            payloadNode = parsed
        } else {
            payloadNode = .string(payload)
        }
        return .object([
            ("id", .int(id)),
            ("event_id", .int(eventId)),
            ("subscription_id", .int(subscriptionId)),
            ("user_id", .int(userId)),
            ("notification_channel", .string(device.channel.rawValue)),
            ("environment", .string(device.environment.rawValue)),
            ("platform", .string(device.platform)),
            ("udid", .string(device.udid)),
            ("client_identification_sequence", .string(device.token)),
            ("payload", payloadNode),
            ("delivered_at", .string(SandboxTime.iso8601(deliveredAt))),
        ])
    }
}
