import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport

/// Finding users (docs/protocol.md §3): by full name, by email, and the page shapes.
@Suite struct UserEndpointTests {
    static let base = "http://127.0.0.1:8080"

    @Test func byFullNameIsPagedAndEscaped() throws {
        let page = #"{"current_page":"2","per_page":5,"total_entries":6,"items":[{"user":{"id":9,"login":"ann","full_name":"Ann Lee"}}]}"#
        let transport = ScriptedTransport([reply(200, page)])
        let result = try chatClient(transport).users(fullName: "Ann Lee&co", page: 2, perPage: 5)
        #expect(transport.requests[0].method == .get)
        #expect(transport.requests[0].url == Self.base + "/users/by_full_name.json?full_name=Ann%20Lee%26co&page=2&per_page=5")
        #expect(result == QBUserPage(currentPage: 2, perPage: 5, totalEntries: 6, items: result.items))
        #expect(result.items.map(\.fullName) == ["Ann Lee"])
    }

    /// Items may come wrapped or bare, and a page may leave out its paging fields.
    @Test func pagesOfBareUsersWithoutPagingFields() throws {
        let transport = ScriptedTransport([reply(200, #"{"items":[{"id":3,"login":"c"},{"user":{"id":4,"login":"d"}}]}"#)])
        let result = try chatClient(transport).users(page: 3, perPage: 2)
        #expect(result.items.map(\.id) == [3, 4])
        #expect(result.currentPage == 3 && result.perPage == 2 && result.totalEntries == 2)
    }

    @Test(arguments: [
        #"{"user":{"id":5,"login":"eve","email":"eve@example.com"}}"#,
        #"{"id":5,"login":"eve","email":"eve@example.com"}"#,
        #"{"current_page":1,"per_page":10,"total_entries":1,"items":[{"user":{"id":5,"login":"eve","email":"eve@example.com"}}]}"#,
    ])
    func byEmailReadsEveryShape(body: String) throws {
        let transport = ScriptedTransport([reply(200, body)])
        let user = try chatClient(transport).user(email: "eve+x@example.com")
        #expect(transport.requests[0].url == Self.base + "/users/by_email.json?email=eve%2Bx%40example.com")
        #expect(user.id == 5 && user.email == "eve@example.com")
    }

    @Test func byEmailNotFoundIs404AlsoAsAnEmptyPage() throws {
        let transport = ScriptedTransport([reply(404, #"{"errors":["The resource wasn't found"]}"#), reply(200, #"{"items":[]}"#)])
        let api = chatClient(transport)
        #expect(try #require(throws: QuickBloxError.self) { try api.user(email: "x@y.z") }.status == 404)
        #expect(try #require(throws: QuickBloxError.self) { try api.user(email: "x@y.z") }.status == 404)
    }

    @Test func anItemWithoutAnIdIsAnInvalidAnswer() throws {
        let transport = ScriptedTransport([reply(200, #"{"items":[{"user":{"login":"noid"}}]}"#)])
        let error = try #require(throws: QuickBloxError.self) { try chatClient(transport).users(fullName: "noid") }
        #expect(error.kind == .invalidResponse)
        #expect(error.request == "GET " + Self.base + "/users/by_full_name.json")
        #expect(error.reasons == ["an item without a user id"])
    }
}
