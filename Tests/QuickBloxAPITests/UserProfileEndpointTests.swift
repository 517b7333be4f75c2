import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport

/// A user's own record (docs/protocol.md §3, "Profile"): the update sends only what is set.
@Suite struct UserProfileEndpointTests {
    static let base = "http://127.0.0.1:8080"

    @Test func anUpdateSendsOnlyTheFieldsSet() throws {
        let answer = #"{"user":{"id":7,"login":"ann","full_name":"Ann Q","blob_id":"12","user_tags":"cats, dogs","phone":"555","last_request_at":"2024-01-01T00:00:00Z"}}"#
        let transport = ScriptedTransport([reply(200, answer), reply(200, answer)])
        let api = chatClient(transport)
        let user = try api.updateUser(id: 7, QBUserUpdate(fullName: "Ann Q", tags: ["cats", "dogs"]))
        #expect(transport.requests[0].method == .put && transport.requests[0].url == Self.base + "/users/7.json")
        #expect(try transport.bodyJSON(0) == ["user": ["full_name": "Ann Q", "tag_list": "cats,dogs"]])
        #expect(user.fullName == "Ann Q" && user.blobID == 12 && user.tags == ["cats", "dogs"] && user.phone == "555")
        #expect(user.lastRequestAt == "2024-01-01T00:00:00Z")
        // A cleared picture is an explicit null; a password goes with the old one.
        _ = try api.updateUser(id: 7, QBUserUpdate(blobID: .some(nil), oldPassword: "old-password", password: "new-password"))
        #expect(try transport.bodyJSON(1) == ["user": ["blob_id": .null, "old_password": "old-password", "password": "new-password"]])
    }

    @Test func theUserTagsMayComeAsAnArrayAndNoPictureIsNil() throws {
        let transport = ScriptedTransport([reply(200, #"{"user":{"id":7,"user_tags":["a","b"],"blob_id":null}}"#)])
        let user = try chatClient(transport).user(externalID: 4711)
        #expect(transport.requests[0].url == Self.base + "/users/external/4711.json")
        #expect(user.tags == ["a", "b"] && user.blobID == nil)
    }

    @Test func deleteTagsAndPasswordResetCallTheirPaths() throws {
        let page = #"{"current_page":1,"per_page":10,"total_entries":1,"items":[{"user":{"id":3,"login":"c"}}]}"#
        let transport = ScriptedTransport([reply(200, ""), reply(200, page), reply(200, "")])
        let api = chatClient(transport)
        try api.deleteUser(id: 7)
        #expect(transport.requests[0].method == .delete && transport.requests[0].url == Self.base + "/users/7.json")
        let tagged = try api.users(tags: ["cats", "dogs"])
        #expect(transport.requests[1].url == Self.base + "/users/by_tags.json?tags=cats%2Cdogs&page=1&per_page=10")
        #expect(tagged.items.map(\.id) == [3])
        try api.resetPassword(email: "ann@example.com")
        #expect(transport.requests[2].method == .get
                && transport.requests[2].url == Self.base + "/password/reset.json?email=ann%40example.com")
    }

    @Test func someoneElsesRecordIs403() throws {
        let transport = ScriptedTransport([reply(403, #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#)])
        let error = try #require(throws: QuickBloxError.self) { try chatClient(transport).updateUser(id: 8, QBUserUpdate(fullName: "X")) }
        #expect(error.status == 403)
    }
}
