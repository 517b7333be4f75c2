import Testing
import MessageCache
import ChatIdentifiers

@Suite("MessageCache: full-text search")
struct SearchTests {
    let fixture: CacheFixture
    let d1 = dialogID(1)
    let d2 = dialogID(2)

    init() throws { fixture = try CacheFixture() }

    func filled() throws -> ChatCache {
        let cache = try fixture.open()
        try cache.upsertMessages([
            message(1, dialog: d1, date: 1, text: "the deploy is done, lunch later"),
            message(2, dialog: d1, date: 2, text: "deploy deploy deploy"),
            message(3, dialog: d2, date: 3, text: "a very long message that mentions deploy once among many other words here"),
            message(4, dialog: d2, date: 4, text: "nothing relevant"),
            message(5, dialog: d2, date: 5, text: "Café déploiement"),
        ])
        return cache
    }

    @Test func rankedByBM25() throws {
        let hits = try filled().search("deploy")
        #expect(hits.map(\.message.id) == [2, 1, 3].map { hexID($0, prefix: "e") })
        #expect(hits.map(\.score) == hits.map(\.score).sorted())
    }

    @Test func snippetUsesCallerMarkers() throws {
        let cache = try filled()
        let hit = try #require(try cache.search("lunch", style: SnippetStyle(open: "<<", close: ">>")).first)
        #expect(hit.snippet == "the deploy is done, <<lunch>> later")
        let bold = try #require(try cache.search("lunch", style: .ansiBold).first)
        #expect(bold.snippet.contains("\u{1B}[1mlunch\u{1B}[22m"))
        let cut = try #require(try cache.search("mentions", style: SnippetStyle(open: "[", close: "]", ellipsis: "...", tokens: 4)).first)
        #expect(cut.snippet.contains("[mentions]"))
        #expect(cut.snippet.contains("..."))
    }

    @Test func dialogFilterAndLimit() throws {
        let cache = try filled()
        #expect(try cache.search("deploy", dialogID: d2).map(\.message.dialogID) == [d2])
        #expect(try cache.search("deploy", limit: 1).count == 1)
        #expect(try cache.search("deploy", dialogID: dialogID(9)).isEmpty)
    }

    @Test func diacriticsAndPrefixes() throws {
        let cache = try filled()
        #expect(try cache.search("cafe").count == 1)
        #expect(try cache.search("deploi*").count == 1)
        #expect(try cache.search("deploy NOT lunch").count == 2)
    }

    @Test(arguments: [#"foo""#, "AND", "deploy AND", "(deploy", "nosuchcolumn:deploy", "NEAR(", "*"])
    func malformedQueryIsACleanError(query: String) throws {
        let cache = try filled()
        let error = try #require(throws: MessageCacheError.self) { _ = try cache.search(query) }
        #expect(error.kind == .invalidSearchQuery)
        // The cache still works afterwards.
        #expect(try cache.search("deploy").count == 3)
    }

    @Test func plainWordsSyntaxNeverFails() throws {
        let cache = try filled()
        #expect(try cache.search(#"foo""#, syntax: .plainWords).isEmpty)
        #expect(try cache.search("!!! ... ) (", syntax: .plainWords).isEmpty)
        #expect(try cache.search(#"deploy" lunch"#, syntax: .plainWords).map(\.message.id) == [hexID(1, prefix: "e")])
        #expect(try cache.search("AND deploy", syntax: .plainWords).isEmpty)
        #expect(try cache.search("depl*", syntax: .plainWords).count == 4)  // deploy x3 + déploiement
    }

    @Test func rankingWindowScoresOnlyTheNewestMatches() throws {
        let cache = try filled()
        #expect(try cache.search("deploy", rankingWindow: 1).map(\.message.id) == [hexID(3, prefix: "e")])
        #expect(try cache.search("deploy", rankingWindow: nil).count == 3)
    }

    @Test func userQueryMatchesTextNotDialogIDs() throws {
        let cache = try filled()
        #expect(try cache.search(d1.rawValue).isEmpty)
        #expect(try cache.search("NEAR(deploy done)").map(\.message.id) == [hexID(1, prefix: "e")])
        #expect(try cache.search("lunch OR nothing").count == 2)
        #expect(try cache.search("lunch OR nothing", dialogID: d2).map(\.message.id) == [hexID(4, prefix: "e")])
    }

    @Test func emptyQueryIsAnError() throws {
        let cache = try filled()
        let error = try #require(throws: MessageCacheError.self) { _ = try cache.search("   ") }
        #expect(error.kind == .invalidSearchQuery)
    }
}
