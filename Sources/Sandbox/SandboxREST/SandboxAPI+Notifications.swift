// A dialog's notification settings, per user (docs/protocol.md §5, "Notification settings"):
// `GET` and `PUT /chat/Dialog/{id}/notifications.json`, answering `{"notifications":{"enabled":1}}`.
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// 404 for an unknown dialog, 403 for one the user may not use (as every dialog route).
    func notificationSettings(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let me = context.session.userId
        let dialog = try usableDialog(context.request.pathParameters["id"] ?? "", userId: me)
        let enabled = try storage { try chat.notificationsEnabled(dialogId: dialog.id, userId: me) }
        return Self.notificationsAnswer(enabled)
    }

    /// `enabled` is 0 or 1, in the form or the JSON body (the reference's integer); anything else is a 422.
    func updateNotificationSettings(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let me = context.session.userId
        let dialog = try usableDialog(context.request.pathParameters["id"] ?? "", userId: me)
        let enabled: Bool
        switch context.request.parameter("enabled")?.trimmingCharacters(" ") {
        case "1": enabled = true
        case "0": enabled = false
        case nil, "": throw .field(422, "enabled", "can't be blank")
        default: throw .field(422, "enabled", "must be 0 or 1")
        }
        try storage { try chat.setNotificationsEnabled(enabled, dialogId: dialog.id, userId: me) }
        return Self.notificationsAnswer(enabled)
    }

    private static func notificationsAnswer(_ enabled: Bool) -> RESTResponse {
        .json(200, .object([("notifications", .object([("enabled", .int(enabled ? 1 : 0))]))]))
    }
}
