import Testing
import MessageCache
import TestSupport
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

    /// As a web search box reads it: `-word` leaves out, phrases, prefixes, OR.
    @Test(arguments: [
        ("deploy -lunch", [2, 3]),
        ("deploy NOT lunch", [2, 3]),
        (#"deploy -"is done""#, [2, 3]),
        (#""deploy is done""#, [1]),
        ("lunch OR relevant", [1, 4]),
        ("lunch OR relevant -nothing", [1]),
        ("depl* -lunch", [2, 3, 5]),
        ("deploy AND lunch", [1]),
        ("-lunch deploy -mentions", [2]),
    ])
    func webSearchSyntax(query: String, ids: [Int]) throws {
        let hits = try filled().search(query, syntax: .webSearch)
        #expect(hits.map(\.message.id).sorted() == ids.map { hexID($0, prefix: "e") })
    }

    @Test(arguments: [
        ("-lunch", "only words to leave out: give at least one word to look for"),
        (#"-"deploy is done""#, "only words to leave out: give at least one word to look for"),
        ("deploy OR", "OR needs a word on each side, as in 'lunch OR dinner'"),
        ("OR deploy", "OR needs a word on each side, as in 'lunch OR dinner'"),
        ("deploy OR -lunch", "a word left out (-lunch) cannot be one side of OR"),
        ("deploy NOT", "NOT needs a word after it"),
        ("!!! -", "the search text is empty"),
    ])
    func webSearchSaysWhatItCannotRead(query: String, message: String) throws {
        let error = try #require(throws: MessageCacheError.self) { _ = try filled().search(query, syntax: .webSearch) }
        #expect(error.kind == .invalidSearchQuery)
        #expect(error.message == message)
    }

    /// What FTS5's parser refuses is read as words: no FTS5 error ever reaches the user.
    @Test func webSearchNeverPassesFTS5Syntax() throws {
        let cache = try filled()
        for query in [#"foo""#, "deploy AND", "(deploy", "nosuchcolumn:deploy", "NEAR(", "deploy^", "{text}:x", "a\"b", "deploy -"] {
            #expect(throws: Never.self, "\(query)") { _ = try cache.search(query, syntax: .webSearch) }
        }
        var random = SplitMix(seed: 10)
        let pieces = ["deploy", "-", "\"", "OR", "NOT", "AND", "*", "(", ")", ":", "^", "{", "}", ",", "+", " ", "lunch", "é", "NEAR", "'"]
        for _ in 0..<500 {
            let query = (0..<Int(random.next() % 8)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            do { _ = try cache.search(query, syntax: .webSearch) } catch {
                #expect(error.kind == .invalidSearchQuery)
                #expect(!error.message.contains("fts5"), "\(query): \(error.message)")
                #expect(!error.message.contains("syntax error"), "\(query): \(error.message)")
            }
        }
    }

    @Test func webSearchQuotesEveryTerm() throws {
        #expect(try SearchQuery(parsing: "friday -carol").ftsQuery == #"("friday") NOT ("carol")"#)
        #expect(try SearchQuery(parsing: #"a OR b* c -"d e" NOT f"#).ftsQuery == #"(("a" OR "b"*) AND "c") NOT ("d e" OR "f")"#)
        #expect(try SearchQuery(parsing: "cat.jpg NEAR(").ftsQuery == #""cat.jpg" AND "NEAR(""#)
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
