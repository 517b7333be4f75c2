import Foundation
import Testing
import TestSupport

/// `GET /account_settings.json` (docs/protocol.md §1): the sandbox names its own endpoints.
@Suite struct AccountSettingsProcessTests {
    @Test func theAccountKeyGetsTheSandboxsOwnEndpointsWithoutASession() throws {
        let sandbox = try SandboxProcess(arguments: ["--account-key", "acct-42", "--chat-domain", "chat.example.test"])
        let r = try sandbox.send(method: "GET", path: "/account_settings.json", headers: [("QB-Account-Key", "acct-42")])
        #expect(r.status == 200)
        let settings = try #require(r.json as? [String: Any])
        #expect(settings["api_endpoint"] as? String == sandbox.apiEndpoint)
        // The chat domain, as the hosted service names its chat host (the SDKs' JID domain) ...
        #expect(settings["chat_endpoint"] as? String == "chat.example.test")
        // ... and where the sandbox's chat really is, for chatctl.
        #expect(settings["chat_url"] as? String == sandbox.chatEndpoint)
        #expect(settings.keys.contains("turnserver_endpoint") && settings["turnserver_endpoint"] is NSNull, "no TURN server")
        #expect(r.headers["qb-token-expirationdate"] == nil, "no session is involved")
    }

    @Test func noKeyIs401AndAWrongKey404() throws {
        let sandbox = try restSandbox()
        let none = try sandbox.send(method: "GET", path: "/account_settings.json")
        #expect(none.status == 401)
        #expect(none.body == #"{"errors":["Account key is required"]}"#)
        let wrong = try sandbox.send(method: "GET", path: "/account_settings.json", headers: [("QB-Account-Key", "not-the-key")])
        #expect(wrong.status == 404)
        #expect(wrong.body == #"{"errors":["The resource wasn't found"]}"#)
    }

    @Test func withoutChatOnlyTheAPIIsNamed() throws {
        let sandbox = try restSandbox()
        let key = sandbox.config["accountKey"] as? String ?? ""
        let r = try sandbox.send(method: "GET", path: "/account_settings.json", headers: [("QB-Account-Key", key)])
        #expect(r.status == 200)
        #expect(r.body == #"{"api_endpoint":"\#(sandbox.apiEndpoint)","chat_endpoint":null,"turnserver_endpoint":null}"#)
    }
}
