/// Where a push goes (docs/protocol.md §14): Apple's APNs (and its VoIP variant), Google's
/// GCM/FCM, the Windows Phone and BlackBerry services the reference still lists, or mail.
package enum PushChannel: String, CaseIterable, Sendable {
    case apns
    case apnsVoIP = "apns_voip"
    case gcm
    case mpns
    case bbps
    case email

    /// The channels a universal push (an event without `push_type`) goes to: every push
    /// service but VoIP, which only a `push_type` of its own reaches.
    package static let universal: [PushChannel] = [.apns, .gcm, .mpns, .bbps]
}

/// The two worlds a subscription and an event live in; an event reaches only the
/// subscriptions of its own.
package enum PushEnvironment: String, CaseIterable, Sendable {
    case development
    case production
}
