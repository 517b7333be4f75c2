import Testing
@testable import ChatView

/// The renderer against golden text snapshots, and the styles text cannot show.
@Suite struct RendererGoldenTests {
    typealias F = Fixture

    @Test(arguments: [
        ("80×24", Scenes.deploy(short: true).screen, Goldens.deploy80x24),
        ("40×12", Scenes.deploy(width: 40, height: 12).screen, Goldens.deploy40x12),
        ("wide text", Scenes.wide().screen, Goldens.wide),
        ("LANG=C, NO_COLOR", Scenes.deploy(profile: RenderProfile(unicode: false, colors: 0, images: .none)).screen, Goldens.ascii),
        ("group", Scenes.group().screen, Goldens.group),
        ("dialogs 80×24", Scenes.dialogs().screen, Goldens.dialogs80x24),
        ("dialogs 40×12", Scenes.dialogs(width: 40, height: 12).screen, Goldens.dialogs40x12),
    ])
    func screen(name: String, screen: String, golden: String) {
        expectGolden(name, screen: screen, golden: golden)
    }

    @Test func incomingCellsHugTheLeftAndOutgoingTheRight() {
        let grid = ScreenRenderer().render(Scenes.deploy(short: true).model)
        let rows = (0..<grid.height).map { grid.text(row: $0) }
        let incoming = rows.first { $0.contains("did the deploy finish?") }!
        let outgoing = rows.first { $0.contains("fixed it, the cache was stale") }!
        #expect(incoming.hasPrefix(" │ did"))
        #expect(outgoing.hasSuffix("stale │ "))
    }

    @Test func aCellIsAtMostAboutTwoThirdsOfTheWidth() {
        for width in [40, 80, 120] {
            let grid = ScreenRenderer().render(Scenes.deploy(width: width, height: 30).model)
            for row in 0..<grid.height {
                let text = grid.text(row: row)
                guard let start = text.firstIndex(of: "╭"), let end = text.lastIndex(of: "╮") else { continue }
                let columns = DisplayWidth.of(text[start...end])
                #expect(columns <= width * 2 / 3, "\(width) columns: \(text)")
            }
        }
    }

    @Test func wideTextIsMeasuredByColumns() {
        let grid = ScreenRenderer().render(Scenes.wide().model)
        for row in 0..<grid.height {
            let text = grid.text(row: row)
            #expect(DisplayWidth.of(text) == 80, "every row is exactly the width: \(text)")
        }
    }

    @Test func withoutColourNoCellHasOneAndReadIsSpeltOut() {
        let plain = ScreenRenderer().render(Scenes.deploy(profile: RenderProfile(unicode: true, colors: 0, images: .none), short: true).model)
        #expect(plain.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
        #expect(plain.snapshot.contains("17:53 ✓✓ read"))
        let colored = ScreenRenderer().render(Scenes.deploy(short: true).model)
        #expect(colored.snapshot.contains("17:53 ✓✓\n"), "in colour, the highlight says read")
        let row = (0..<colored.height).first { colored.text(row: $0).contains("17:53") }!
        let check = (0..<colored.width).first { colored[row, $0].text == "✓" }!
        #expect(colored[row, check].style.foreground != nil && colored[row, check].style.bold)
    }

    @Test func eachSenderHasAColourOfTheirOwnInAGroup() {
        let grid = ScreenRenderer().render(Scenes.group().model)
        func style(ofNameStarting name: String) -> CellStyle? {
            for row in 0..<grid.height where grid.text(row: row).hasPrefix(" \(name)") { return grid[row, 1].style }
            return nil
        }
        let bob = style(ofNameStarting: "bob"), carol = style(ofNameStarting: "carol")
        #expect(bob?.foreground != nil && carol?.foreground != nil && bob?.foreground != carol?.foreground)
        #expect(ScreenRenderer().render(Scenes.group().model) == grid, "stable")
    }

    @Test func aScreenTooSmallSaysWhatItNeeds() {
        var session = F.opened(width: 30, height: 8)
        #expect(session.screen.contains("needs at least") && session.screen.contains("40x12 (this is 30x8)"))
        session.send(.resize(width: 40, height: 12))
        #expect(session.screen.contains("message 1029"))
    }

    @Test func theCursorSitsInTheInputAfterWideText() {
        var session = F.opened()
        session.type("中文")
        let grid = ScreenRenderer().render(session.model)
        #expect(grid.cursor?.row == 23)
        #expect(grid.cursor?.column == 6, "the prompt, then two wide glyphs")
    }

    @Test func theInputGrowsAndScrollsWithItsText() {
        var session = F.opened(width: 40, height: 12)
        session.send(.paste((1...6).map { "line \($0)" }.joined(separator: "\n")))
        let grid = ScreenRenderer().render(session.model)
        let rows = (0..<grid.height).map { grid.text(row: $0) }
        #expect(rows.suffix(3).map { $0.trimmingBlanks() } == ["> line 4", "line 5", "line 6"])
        #expect(grid.cursor?.row == 11)
    }
}
