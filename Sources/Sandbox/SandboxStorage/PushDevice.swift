internal import SQLiteStore

/// A device as push knows it (docs/protocol.md §14): the channel and environment pushes for it
/// go through, its platform and udid, and the token the push service knows it by. A
/// subscription keeps one; a delivery names the one it went to.
package struct PushDevice: Equatable {
    package var channel: PushChannel
    package var environment: PushEnvironment
    /// `ios`, `android`, `windows_phone` or `blackberry`.
    package var platform: String
    package var udid: String
    /// `push_token[client_identification_sequence]`; empty for mail.
    package var token: String
    /// The app's (`push_token[bundle_identifier]`); a delivery keeps none.
    package var bundleIdentifier: String?

    package init(channel: PushChannel, environment: PushEnvironment, platform: String, udid: String, token: String,
                 bundleIdentifier: String? = nil) {
        self.channel = channel; self.environment = environment; self.platform = platform
        self.udid = udid; self.token = token; self.bundleIdentifier = bundleIdentifier
    }

    /// As a row of `push_subscriptions` or of `push_deliveries` (no bundle id) keeps it.
    init(row: Statement) {
        self.init(channel: PushChannel(rawValue: row["channel"].textValue ?? "") ?? .apns,
                  environment: PushEnvironment(rawValue: row["environment"].textValue ?? "") ?? .development,
                  platform: row["platform"].textValue ?? "", udid: row["udid"].textValue ?? "", token: row["token"].textValue ?? "",
                  bundleIdentifier: row["bundle_identifier"].textValue)
    }
}
