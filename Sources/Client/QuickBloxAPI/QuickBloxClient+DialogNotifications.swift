import ChatIdentifiers

/// A dialog's notification settings (docs/protocol.md §5, "Notification settings"): whether
/// the current user muted it. Through `send`, as every dialog call (403 not allowed, 404 unknown).
extension QuickBloxClient {
    /// `GET /chat/Dialog/{id}/notifications.json`.
    package func dialogNotifications(dialogID: DialogID) throws(QuickBloxError) -> QBDialogNotifications {
        let path = "/chat/Dialog/\(Self.pathIDs([dialogID.rawValue]))/notifications.json"
        return try parseNotifications(try send(.get, path), request: "GET \(path)")
    }

    /// `PUT /chat/Dialog/{id}/notifications.json` `{"enabled":0}` (mute) or `{"enabled":1}`;
    /// an integer, as the reference has it. Returns what the server now holds.
    package func updateDialogNotifications(dialogID: DialogID, enabled: Bool) throws(QuickBloxError) -> QBDialogNotifications {
        let path = "/chat/Dialog/\(Self.pathIDs([dialogID.rawValue]))/notifications.json"
        let json = try send(.put, path) { ["enabled": .int(enabled ? 1 : 0)] }
        return try parseNotifications(json, request: "PUT \(path)")
    }

    private func parseNotifications(_ json: JSONValue, request: String) throws(QuickBloxError) -> QBDialogNotifications {
        guard let settings = QBDialogNotifications(json: json) else {
            throw invalidResponse(request, "no \"notifications\" object with \"enabled\" 0 or 1")
        }
        return settings
    }
}
