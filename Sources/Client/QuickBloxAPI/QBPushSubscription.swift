/// A device subscribed to push notifications (docs/protocol.md §14): the common fields
/// typed, every field as received in `raw`.
package struct QBPushSubscription: Sendable, Equatable {
    package var id: Int
    /// `notification_channel.name`: `apns`, `apns_voip`, `gcm`, `email`…
    package var channel: String?
    /// `device.platform.name`: `ios`, `android`…
    package var platform: String?
    package var udid: String?
    package var bundleIdentifier: String?
    package var raw: [String: JSONValue]

    /// From a subscription object, bare or as `{"subscription":{…}}`; nil without an `id`.
    package init?(json: JSONValue) {
        let subscription = json.unwrapping("subscription")
        guard let members = subscription.objectValue, let id = subscription["id"]?.looseInt else { return nil }
        self.id = id
        channel = subscription["notification_channel"]?["name"]?.looseString
        platform = subscription["device"]?["platform"]?["name"]?.looseString
        udid = subscription["device"]?["udid"]?.looseString
        bundleIdentifier = subscription["device"]?["bundle_identifier"]?.looseString
        raw = members
    }
}
