import Testing
@testable import ChatView

/// Image previews as messages: the update asks the edge to draw an image on the
/// screen (`drawPreview`), once per image and room; the edge answers with
/// `previewDrawn`; the model keeps the answer, and layout and renderer read it there.
@Suite struct ImagePreviewSeamTests {
    typealias F = Fixture

    static let symbols = RenderProfile(unicode: true, colors: 256, images: .symbols)
    static let cat = ShownAttachment(kind: "image", name: "cat.png", size: 2048, uid: "c47")
    static let localCat = ShownAttachment(kind: "image", name: "cat.png", size: 2048, uid: "c47", localPath: "/tmp/cat.png")
    /// What an 80-column view asks for the cat: two thirds of the width less the cell's edges, 12 rows.
    static let catAt80 = PreviewRequest(path: "/tmp/cat.png", room: CellBox(columns: 49, rows: 12), profile: symbols)

    /// A block of `columns`×`rows` cells, each ▒ in colour 2, as the edge would draw it.
    static func drawn(_ columns: Int, _ rows: Int) -> ImagePreview {
        let cell = Cell("▒", style: CellStyle(foreground: 2))
        return .cells(Array(repeating: Array(repeating: cell, count: columns), count: rows), box: CellBox(columns: columns, rows: rows))
    }

    static func draws(_ effects: [ScreenEffect]) -> [PreviewRequest] {
        effects.compactMap { if case .drawPreview(let request) = $0 { request } else { nil } }
    }

    /// Rows of the screen that show a drawn block inside a cell's left edge.
    static func drawnRows(_ screen: String) -> [String] {
        screen.components(separatedBy: "\n").filter { $0.contains("│ ▒") }
    }

    /// Bob's dialog opened with three messages and then `attachments` from Bob, the
    /// effects kept (`Fixture.opened` drops them).
    static func session(_ attachments: [ShownAttachment] = [localCat], before: [ShownMessage] = F.history(3), width: Int = 80,
                        profile: RenderProfile = symbols) -> F.Session {
        var session = F.Session(F.model(width: width, profile: profile))
        session.send(.dialogsLoaded([F.bobDialog]))
        session.send(.connection(.connected))
        session.send(.key(.enter))
        session.send(.conversationLoaded(F.bobDialog, messages: before + [F.message(8000, from: F.bob, "", at: F.t0 + 5, attachments: attachments)],
                                         pending: [], names: F.names))
        return session
    }

    @Test func aVisibleImageIsFetchedThenDrawnInItsCell() {
        var session = Self.session([Self.cat])
        #expect(session.effects.filter { $0 == .fetchPreview(messageID: F.id(8000), attachment: 0) }.count == 1)
        session.send(.tick)
        #expect(session.effects.filter { $0 == .fetchPreview(messageID: F.id(8000), attachment: 0) }.count == 1, "asked once")
        #expect(Self.draws(session.effects).isEmpty, "no file to draw yet")
        session.send(.transfer(messageID: F.id(8000), attachment: 0, Transfer(direction: .preview, done: 1024, total: 2048),
                               localPath: nil))
        #expect(session.screen.contains("50 %"), "a fetch under way shows its progress: \(session.screen)")
        session.send(.transfer(messageID: F.id(8000), attachment: 0, Transfer(direction: .preview, done: 2048, total: 2048, outcome: .succeeded),
                               localPath: "/tmp/previews/c47"))
        let request = PreviewRequest(path: "/tmp/previews/c47", room: CellBox(columns: 49, rows: 12), profile: Self.symbols)
        #expect(Self.draws(session.effects) == [request], "the fetched file is drawn in the background")
        #expect(Self.drawnRows(session.screen).isEmpty && session.screen.contains("[image] cat.png"), "until then, the name: \(session.screen)")
        session.send(.previewDrawn(request, Self.drawn(8, 3)))
        #expect(Self.drawnRows(session.screen).count == 3, "a block of 8×3 cells in the cell: \(session.screen)")
        #expect(Self.drawnRows(session.screen).allSatisfy { $0.contains("│ ▒▒▒▒▒▒▒▒") })
        // Fetched only for its preview: no progress bar left and no "saved as", which
        // would read as if the user had saved the file.
        #expect(!session.screen.contains("saved as"), "\(session.screen)")
        #expect(!session.screen.contains("100 %"), "\(session.screen)")
        // Saved on request (`d`), it says where.
        session.send(.transfer(messageID: F.id(8000), attachment: 0, Transfer(direction: .download, done: 2048, total: 2048, outcome: .succeeded),
                               localPath: "./cat.png"))
        #expect(session.screen.contains("saved as ./cat.png"), "\(session.screen)")
    }

    @Test func theSameModelDrawsTheSameScreenWithItsPreviewOrWithout() {
        let without = Self.session().model
        let placeholder = ScreenRenderer().render(without)
        #expect(ScreenRenderer().render(without) == placeholder)
        #expect(placeholder.snapshot.contains("│ [image] cat.png · 2.0 KB │"), "\(placeholder.snapshot)")
        #expect(Self.drawnRows(placeholder.snapshot).isEmpty)

        var with = without
        with.previews.store(Self.drawn(8, 3), for: Self.catAt80)
        let grid = ScreenRenderer().render(with)
        #expect(ScreenRenderer().render(with) == grid)
        let rows = grid.snapshot.components(separatedBy: "\n")
        let label = try! #require(rows.firstIndex { $0.contains("[image] cat.png") })
        // Under the name, inside the cell's edges, in the colours the edge drew.
        #expect(rows[label + 1...label + 3].allSatisfy { $0.hasPrefix(" │ ▒▒▒▒▒▒▒▒ ") && $0.hasSuffix("│") }, "\(grid.snapshot)")
        #expect(rows[label + 4].hasPrefix(" ╰"), "the cell ends under it: \(grid.snapshot)")
        #expect(grid[label + 1, 3].style.foreground == 2)
    }

    @Test func eachImageIsAskedForOnceForEachRoom() {
        var session = Self.session()
        #expect(Self.draws(session.effects) == [Self.catAt80])
        session.type("hello")
        session.send(.tick)
        session.send(.key(.pageUp))
        session.send(.key(.pageDown))
        #expect(Self.draws(session.effects) == [Self.catAt80], "not again for keys and ticks while it is drawn")
        session.send(.resize(width: 100, height: 24))
        let wider = PreviewRequest(path: "/tmp/cat.png", room: CellBox(columns: 62, rows: 12), profile: Self.symbols)
        #expect(Self.draws(session.effects) == [Self.catAt80, wider], "a wider screen has room for a larger one")
        session.send(.resize(width: 80, height: 24))
        session.send(.previewDrawn(Self.catAt80, Self.drawn(8, 3)))
        session.send(.previewDrawn(wider, Self.drawn(8, 3)))
        session.send(.resize(width: 100, height: 24))
        session.send(.resize(width: 80, height: 24))
        #expect(Self.draws(session.effects) == [Self.catAt80, wider], "each drawn once")
    }

    @Test func onlyImagesOnTheScreenAreDrawn() {
        let old = F.message(900, from: F.bob, "", at: F.t0 - 7200, attachments: [Self.localCat])
        var session = Self.session([], before: [old] + F.history(30))
        #expect(Self.draws(session.effects).isEmpty, "the image is far above the screen")
        session.send(.key(.home))
        #expect(Self.draws(session.effects) == [Self.catAt80], "scrolled to it: \(session.screen)")
    }

    @Test func aPreviewThatCannotBeDrawnSaysWhy() {
        var session = Self.session()
        session.send(.previewDrawn(Self.catAt80, .unavailable(reason: "not an image that can be previewed: PNG, JPEG, GIF or BMP")))
        #expect(session.screen.contains("[image] cat.png"), "\(session.screen)")
        #expect(session.screen.contains("│ no preview: not an image that can be previewed:"), "\(session.screen)")
        #expect(session.screen.contains("│ PNG, JPEG, GIF or BMP"), "wrapped in the cell: \(session.screen)")
        #expect(Self.draws(session.effects) == [Self.catAt80], "not asked again")
    }

    @Test func aResizeShowsTheOldPreviewMeanwhileOnlyWhereItFits() {
        var session = Self.session()
        session.send(.previewDrawn(Self.catAt80, Self.drawn(30, 5)))
        #expect(Self.drawnRows(session.screen).count == 5)
        // Wider: room for a larger one, asked for; the one drawn still fits meanwhile.
        session.send(.resize(width: 100, height: 24))
        #expect(Self.draws(session.effects).count == 2)
        #expect(Self.drawnRows(session.screen).count == 5, "\(session.screen)")
        // Narrower than it: not drawn over the text beside it; the name alone until redrawn.
        session.send(.resize(width: 45, height: 24))
        let narrow = PreviewRequest(path: "/tmp/cat.png", room: CellBox(columns: 26, rows: 12), profile: Self.symbols)
        #expect(Self.draws(session.effects).last == narrow)
        #expect(Self.drawnRows(session.screen).isEmpty, "\(session.screen)")
        #expect(session.screen.contains("[image] cat.png"))
        session.send(.previewDrawn(narrow, Self.drawn(26, 4)))
        #expect(Self.drawnRows(session.screen).count == 4, "\(session.screen)")
    }

    @Test func theModelKeepsSixteenPreviewsBesideThoseOnTheScreen() {
        var session = Self.session()
        session.send(.previewDrawn(Self.catAt80, Self.drawn(8, 3)))
        let others = (0..<40).map { PreviewRequest(path: "/tmp/other-\($0).png", room: CellBox(columns: 49, rows: 12), profile: Self.symbols) }
        for request in others { session.send(.previewDrawn(request, Self.drawn(8, 3))) }
        #expect(session.model.previews.count == PreviewCache.capacity)
        #expect(session.model.previews.preview(for: Self.catAt80) != nil, "the one on the screen stays, though the oldest")
        #expect(Self.drawnRows(session.screen).count == 3)
        #expect(session.model.previews.preview(for: others[0]) == nil, "the oldest of the others went")
        #expect(session.model.previews.preview(for: others[39]) != nil)
        #expect(Self.draws(session.effects) == [Self.catAt80], "nothing asked again")
    }

    @Test func withNoneAnImageIsItsNameAndSize() {
        var off = Self.session([Self.cat, Self.localCat], profile: RenderProfile(unicode: true, colors: 256, images: .none))
        off.send(.tick)
        #expect(!off.effects.contains { if case .fetchPreview = $0 { true } else { false } })
        #expect(Self.draws(off.effects).isEmpty)
        #expect(off.screen.contains("[image] cat.png · 2.0 KB"))
    }

    @Test func anEscapeImageIsPlacedOverBlankCellsForTheTerminal() throws {
        let kitty = RenderProfile(unicode: true, colors: 256, images: .kitty)
        var session = Self.session(profile: kitty)
        let request = try #require(Self.draws(session.effects).first)
        #expect(request.profile == kitty)
        session.send(.previewDrawn(request, .escape(Array("\u{1B}_Gimage\u{1B}\\".utf8), box: CellBox(columns: 8, rows: 3))))
        let grid = ScreenRenderer().render(session.model)
        let placement = try #require(grid.images.first)
        #expect(placement.box == CellBox(columns: 8, rows: 3))
        #expect(placement.payload == Array("\u{1B}_Gimage\u{1B}\\".utf8))
        #expect(grid.text(row: placement.row).dropFirst(placement.column).prefix(8) == "        ", "blank under the image")
    }
}
