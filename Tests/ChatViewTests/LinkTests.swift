import Testing
@testable import ChatView

/// Links in messages: found as QuickBlox's labels find them, underlined where they fall
/// on wrapped lines (a long one cut between lines too), the text left as sent.
@Suite struct LinkTests {
    typealias F = Fixture

    @Test(arguments: [
        ("logs at https://ci.example.com/run/42.", ["https://ci.example.com/run/42"]),
        ("(see https://en.wikipedia.org/wiki/Swift_(programming_language))", ["https://en.wikipedia.org/wiki/Swift_(programming_language)"]),
        ("two: http://a.example/x, https://b.example/y?q=1;", ["http://a.example/x", "https://b.example/y?q=1"]),
        ("no link: xhttp://nope and https:// alone", []),
        ("\"https://quoted.example/\"", ["https://quoted.example/"]),
    ])
    func linksAreFoundWithoutTheirSentencesPunctuation(text: String, expected: [String]) {
        #expect(LinkFinder.links(in: text) == expected)
    }

    @Test func aLinkCutBetweenLinesIsUnderlinedOnEach() throws {
        let url = "https://ci.example.com/pipelines/very/long/path/that/wraps/" + String(repeating: "x", count: 40)
        var session = F.opened(messages: F.history(3) + [F.message(7000, from: F.bob, "build: \(url) done", at: F.t0 + 5)],
                               width: 60, height: 24)
        let grid = ScreenRenderer().render(session.model)
        let links = grid.links.filter { $0.url == url }
        #expect(links.count >= 2, "on two rows at least: \(grid.links)")
        let covered = links.map { link in link.columns.map { grid[link.row, $0].text }.joined() }.joined()
        #expect(covered == url, "the cells under the links spell it, and only it")
        for link in links { for column in link.columns { #expect(grid[link.row, column].style.underline) } }
        let row = try #require((0..<grid.height).first { grid.text(row: $0).contains("build:") })
        let column = try #require((0..<grid.width).first { grid[row, $0].text == "b" })
        #expect(!grid[row, column].style.underline, "'build:' is not part of it")
        #expect(session.screen.contains("done"), "the text stays as sent")
        session.send(.tick)
    }
}

/// The compact layout (`bubbles: false`) shows a reply's original too, dimmed above its text.
@Suite struct CompactQuoteTests {
    typealias F = Fixture

    @Test func aReplyInTheCompactLayoutShowsWhatItQuotes() throws {
        var session = Scenes.replies()
        session.model.settings.bubbles = false
        session.send(.key(.escape))
        let rows = session.screen.components(separatedBy: "\n")
        let answer = try #require(rows.firstIndex { $0.contains("<alice>") && $0.contains("↪ bob") })
        #expect(rows[answer + 1].contains("did the deploy finish?"), "\(rows)")
        #expect(rows[answer + 2].contains("yes, all green"))
    }
}

extension CompactQuoteTests {
    @Test func theCompactLayoutUnderlinesLinksAndMarksEdits() throws {
        var edited = F.message(7000, from: F.bob, "see https://example.com/a for it", at: F.t0 + 5)
        edited.edited = true
        var session = F.opened(messages: F.history(3) + [edited])
        session.model.settings.bubbles = false
        session.send(.tick)
        let grid = ScreenRenderer().render(session.model)
        let link = try #require(grid.links.first)
        #expect(link.url == "https://example.com/a")
        #expect(link.columns.map { grid[link.row, $0].text }.joined() == "https://example.com/a")
        #expect(grid[link.row, link.columns.lowerBound].style.underline)
        #expect(grid.text(row: link.row).contains("for it (edited)"))
    }
}
