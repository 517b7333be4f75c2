// Push subscriptions (docs/protocol.md §14): a user's devices, each subscribed to channels,
// created, listed and removed as the hosted service answers them.
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// The platforms the reference names for `device[platform]`.
    static let pushPlatforms: Set<String> = ["ios", "android", "windows_phone", "blackberry"]
    /// How many subscriptions a user may have: the hosted service's "up to 10 on different devices".
    static let subscriptionsPerUser = 10
    /// The longest `device[udid]` and `push_token[client_identification_sequence]` taken.
    static let longestDeviceText = 255
    static let longestPushToken = 4096

    /// `POST /subscriptions.json`: `notification_channel` (or the SDKs' `notification_channels`,
    /// several as `a,b`), `push_token[environment]`, `push_token[client_identification_sequence]`
    /// (not for mail), `push_token[bundle_identifier]`, `device[platform]`, `device[udid]`.
    /// 201 with an array of `{"subscription":{…}}`, one per channel; every problem in one 422,
    /// nothing stored.
    func subscribe(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        var problems: [(String, JSONNode)] = []
        func problem(_ key: String, _ message: String) { problems.append((key, .array([.string(message)]))) }
        var channels: [PushChannel] = []
        switch r.list("notification_channel") ?? r.list("notification_channels") ?? [] {
        case []: problem("notification_channel", "can't be blank")
        case let names:
            for name in names {
                guard let channel = PushChannel(rawValue: name) else {
                    problem("notification_channel", "is not included in the list: \(name) (apns, apns_voip, gcm, mpns, bbps or email)")
                    continue
                }
                channels.append(channel)
            }
        }
        let environment = Self.environment(r.parameter("push_token[environment]"), key: "push_token[environment]", &problems)
        let token = String(r.parameter("push_token[client_identification_sequence]")?.trimmingSpaces ?? "")
        if token.isEmpty && channels.contains(where: { $0 != .email }) {
            problem("push_token[client_identification_sequence]", "can't be blank")
        } else if token.count > Self.longestPushToken {
            problem("push_token[client_identification_sequence]", "is too long (maximum is \(Self.longestPushToken) characters)")
        }
        let platform = r.parameter("device[platform]")?.trimmingSpaces.lowercased() ?? ""
        if platform.isEmpty {
            problem("device[platform]", "can't be blank")
        } else if !Self.pushPlatforms.contains(platform) {
            problem("device[platform]", "is not included in the list: \(platform) (ios, android, windows_phone or blackberry)")
        }
        let udid = String(r.parameter("device[udid]")?.trimmingSpaces ?? "")
        if udid.isEmpty {
            problem("device[udid]", "can't be blank")
        } else if udid.count > Self.longestDeviceText {
            problem("device[udid]", "is too long (maximum is \(Self.longestDeviceText) characters)")
        }
        let bundle = r.parameter("push_token[bundle_identifier]").map { String($0.trimmingSpaces) }.flatMap { $0.isEmpty ? nil : $0 }
        guard problems.isEmpty, let environment else { throw RESTError(status: 422, errors: .object(problems)) }
        // A device and channel already subscribed are renewed, not counted again.
        let mine = try storage { try push.subscriptions(userId: me) }
        let added = channels.filter { channel in !mine.contains { $0.device.udid == udid && $0.device.channel == channel } }
        guard mine.count + added.count <= Self.subscriptionsPerUser else {
            throw .field(422, "base", "A user can have at most \(Self.subscriptionsPerUser) subscriptions; remove one first")
        }
        let new = channels.map {
            PushDevice(channel: $0, environment: environment, platform: platform, udid: udid, token: token, bundleIdentifier: bundle)
        }
        let stored = try storage { try push.subscribe(userId: me, new) }
        return .json(201, .array(stored.map { .object([("subscription", $0.json)]) }))
    }

    /// `GET /subscriptions.json`: the session user's subscriptions, oldest first, as an array of
    /// `{"subscription":{…}}`; 404 when they have none, as the hosted service answers.
    func listSubscriptions(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let mine = try storage { try push.subscriptions(userId: context.session.userId) }
        guard !mine.isEmpty else { throw .notFound }
        return .json(200, .array(mine.map { .object([("subscription", $0.json)]) }))
    }

    /// `DELETE /subscriptions/{id}.json`: the owner only (403); 404 for an unknown id. 200, empty.
    func unsubscribe(_ context: UserContext) throws(RESTError) -> RESTResponse {
        guard let id = context.request.pathParameters["id"].flatMap({ Int($0) }),
              let subscription = try storage({ try push.subscription(id: id) }) else { throw .notFound }
        guard subscription.userId == context.session.userId else { throw .forbidden }
        try storage { try push.deleteSubscription(id: id) }
        return .empty(200)
    }

    /// `development` or `production` from `text`; nil with a problem on `key` otherwise.
    static func environment(_ text: String?, key: String, _ problems: inout [(String, JSONNode)]) -> PushEnvironment? {
        let value = text?.trimmingSpaces.lowercased() ?? ""
        if let environment = PushEnvironment(rawValue: value) { return environment }
        problems.append((key, .array([.string(value.isEmpty ? "can't be blank" : "is not included in the list: \(value) (development or production)")])))
        return nil
    }
}
