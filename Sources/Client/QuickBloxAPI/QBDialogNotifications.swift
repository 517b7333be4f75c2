/// A dialog's notification settings for the current user (docs/protocol.md §5, "Notification
/// settings"): `{"notifications":{"enabled":1}}`, the reference's `DialogNotificationsResponse`.
package struct QBDialogNotifications: Sendable, Equatable {
    /// False: the user muted the dialog.
    package var enabled: Bool
    package init(enabled: Bool) { self.enabled = enabled }

    /// Nil without `notifications.enabled`. `enabled` is read loosely: 0 or 1 as a number or
    /// text (the reference's integer), or a boolean; any other number is nil, not a guess.
    init?(json: JSONValue) {
        guard let value = json["notifications"]?["enabled"] else { return nil }
        if case .bool(let flag) = value {
            enabled = flag
        } else if let number = value.looseInt, number == 0 || number == 1 {
            enabled = number == 1
        } else {
            return nil
        }
    }
}
