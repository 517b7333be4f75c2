import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport

/// A dialog's notification settings (docs/protocol.md §5, "Notification settings").
@Suite struct DialogNotificationsEndpointTests {
    static let base = DialogEndpointTests.base

    @Test func readingAsksTheDialogsSettingsAndDecodesEnabled() throws {
        let transport = ScriptedTransport([reply(200, #"{"notifications":{"enabled":0}}"#)])
        let settings = try chatClient(transport).dialogNotifications(dialogID: "5d75d2b0a28f9a1b2c3d4e5f")
        let sent = transport.requests[0]
        #expect(sent.method == .get)
        #expect(sent.url == Self.base + "/chat/Dialog/5d75d2b0a28f9a1b2c3d4e5f/notifications.json")
        #expect(sent.header("QB-Token") == "tok-user")
        #expect(sent.body.isEmpty)
        #expect(settings == QBDialogNotifications(enabled: false))
    }

    /// `enabled` as the reference's integer, never a boolean; the answer is what the server holds.
    @Test(arguments: [(true, 1), (false, 0)])
    func changingSendsEnabledAsAnInteger(enabled: Bool, sent: Int) throws {
        let transport = ScriptedTransport([reply(200, #"{"notifications":{"enabled":\#(sent)}}"#)])
        let settings = try chatClient(transport).updateDialogNotifications(dialogID: "d1", enabled: enabled)
        #expect(transport.requests[0].method == .put)
        #expect(transport.requests[0].url == Self.base + "/chat/Dialog/d1/notifications.json")
        #expect(try transport.bodyJSON(0) == ["enabled": .int(sent)])
        #expect(String(decoding: transport.requests[0].body, as: UTF8.self) == #"{"enabled":\#(sent)}"#)
        #expect(settings.enabled == enabled)
    }

    /// Numbers as text and booleans are read too; the answer, not the request, decides.
    @Test(arguments: [
        (#"{"notifications":{"enabled":"1"}}"#, true), (#"{"notifications":{"enabled":"0"}}"#, false),
        (#"{"notifications":{"enabled":true}}"#, true), (#"{"notifications":{"enabled":false}}"#, false),
        (#"{"notifications":{"enabled":1.0}}"#, true),
    ])
    func enabledIsReadLoosely(body: String, enabled: Bool) throws {
        let transport = ScriptedTransport([reply(200, body)])
        #expect(try chatClient(transport).updateDialogNotifications(dialogID: "d1", enabled: !enabled).enabled == enabled)
    }

    @Test(arguments: ["", "{}", #"{"notifications":{}}"#, #"{"notifications":{"enabled":2}}"#, #"{"enabled":1}"#,
                      #"{"notifications":{"enabled":"yes"}}"#])
    func anAnswerWithoutASettingIsInvalid(body: String) throws {
        let transport = ScriptedTransport([reply(200, body)])
        let error = try #require(throws: QuickBloxError.self) { try chatClient(transport).dialogNotifications(dialogID: "d1") }
        #expect(error.kind == .invalidResponse)
        #expect(error.request == "GET " + Self.base + "/chat/Dialog/d1/notifications.json")
    }

    @Test func refusalsCarryTheStatusAndTheIdIsEscaped() throws {
        let transport = ScriptedTransport([
            reply(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#),
            reply(404, #"{"errors":["The resource wasn't found"]}"#),
        ])
        let api = chatClient(transport)
        let forbidden = try #require(throws: QuickBloxError.self) { try api.updateDialogNotifications(dialogID: "d1", enabled: false) }
        #expect(forbidden.status == 403)
        #expect(forbidden.reasons == ["You don't have appropriate permissions to perform this operation"])
        let unknown = try #require(throws: QuickBloxError.self) { try api.dialogNotifications(dialogID: "../a?b=1") }
        #expect(unknown.status == 404)
        #expect(transport.requests[1].url == Self.base + "/chat/Dialog/..%2Fa%3Fb%3D1/notifications.json")
    }
}
