import SandboxJSON

/// A device subscribed to a channel (docs/protocol.md §14): whose it is, where pushes for it
/// would go (the token the push service knows the device by) and in which environment.
package struct PushSubscriptionRecord {
    package var id: Int
    package var userId: Int
    package var device: PushDevice
    package var createdAt: Double
    package var updatedAt: Double

    /// The `subscription` object as the hosted service answers it.
    package var json: JSONNode {
        .object([
            ("id", .int(id)),
            ("notification_channel", .object([("name", .string(device.channel.rawValue))])),
            ("device", .object([
                ("udid", .string(device.udid)),
                ("client_identification_sequence", .string(device.token)),
                ("platform", .object([("name", .string(device.platform))])),
                ("bundle_identifier", .optionalString(device.bundleIdentifier)),
            ])),
        ])
    }
}
