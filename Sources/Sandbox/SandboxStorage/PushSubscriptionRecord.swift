import SandboxJSON

/// A device subscribed to a channel (docs/protocol.md §14): whose it is, where pushes for it
/// would go (the token the push service knows the device by) and in which environment.
package struct PushSubscriptionRecord {
    package var id: Int
    package var userId: Int
    package var channel: PushChannel
    package var environment: PushEnvironment
    /// `ios`, `android`, `windows_phone` or `blackberry`.
    package var platform: String
    package var udid: String
    /// `push_token[client_identification_sequence]`; empty for mail.
    package var token: String
    package var bundleIdentifier: String?
    package var createdAt: Double
    package var updatedAt: Double

    /// The `subscription` object as the hosted service answers it.
    package var json: JSONNode {
        .object([
            ("id", .int(id)),
            ("notification_channel", .object([("name", .string(channel.rawValue))])),
            ("device", .object([
                ("udid", .string(udid)),
                ("client_identification_sequence", .string(token)),
                ("platform", .object([("name", .string(platform))])),
                ("bundle_identifier", .optionalString(bundleIdentifier)),
            ])),
        ])
    }
}

/// What a subscription request asks for, validated.
package struct NewPushSubscription {
    package var channel: PushChannel
    package var environment: PushEnvironment
    package var platform: String
    package var udid: String
    package var token: String
    package var bundleIdentifier: String?

    package init(channel: PushChannel, environment: PushEnvironment, platform: String, udid: String, token: String,
                 bundleIdentifier: String?) {
        self.channel = channel; self.environment = environment; self.platform = platform
        self.udid = udid; self.token = token; self.bundleIdentifier = bundleIdentifier
    }
}
