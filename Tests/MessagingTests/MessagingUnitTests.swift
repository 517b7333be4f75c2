import Diagnostics
import Testing
@testable import Messaging

@Suite struct MessageSplitterTests {
    @Test func shortTextIsOneMessage() {
        #expect(MessageSplitter.split("hello\nworld", limit: 100) == ["hello\nworld"])
    }

    @Test func splitsOnLineBoundariesWithinTheLimit() {
        let parts = MessageSplitter.split("aaaa\nbbbb\ncccc\ndddd", limit: 9)
        #expect(parts == ["aaaa\nbbbb", "cccc\ndddd"])
        #expect(parts.allSatisfy { $0.utf8.count <= 9 })
    }

    @Test func aLineLongerThanTheLimitIsCutAtCharacters() {
        let parts = MessageSplitter.split("ab\n" + String(repeating: "é", count: 10) + "\ncd", limit: 6)
        #expect(parts.allSatisfy { $0.utf8.count <= 6 })
        #expect(parts.joined().filter { $0 != "\n" } == "ab" + String(repeating: "é", count: 10) + "cd", "nothing is lost")
    }

    @Test(arguments: [7, 16, 33, 100, 1000])
    func nothingIsLostOrReordered(limit: Int) {
        let lines = (0..<200).map { "line \($0) " + String(repeating: "x", count: $0 % 13) }
        let text = lines.joined(separator: "\n")
        let parts = MessageSplitter.split(text, limit: limit)
        #expect(parts.allSatisfy { $0.utf8.count <= limit && !$0.isEmpty })
        if limit >= 40 { #expect(parts.joined(separator: "\n") == text) }
    }
}

@Suite struct DialogReferenceTests {
    @Test(arguments: [
        ("5f1e2d3c4b5a697887766554", DialogReference.id("5f1e2d3c4b5a697887766554")),
        ("@alice", .user(login: "alice")),
        ("ops", .name("ops")),
        ("5F1E2D3C4B5A697887766554", .name("5F1E2D3C4B5A697887766554")),
        ("release team", .name("release team")),
    ])
    func parses(text: String, expected: DialogReference) throws {
        #expect(try DialogReference(parsing: text) == expected)
    }

    @Test(arguments: ["", "@"])
    func rejects(text: String) {
        #expect(throws: Failure.self) { _ = try DialogReference(parsing: text) }
    }
}
