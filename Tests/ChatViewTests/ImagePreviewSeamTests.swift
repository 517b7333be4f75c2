import Testing
@testable import ChatView

/// The seam another module fills: a provider gives image previews a block of cells.
@Suite struct ImagePreviewSeamTests {
    typealias F = Fixture

    final class Previews: ImagePreviewProvider {
        let escape: Bool
        var asked: [String] = []
        init(escape: Bool = false) { self.escape = escape }

        func box(forImageAt path: String, maxColumns: Int, maxRows: Int, mode: ImageMode) -> CellBox? {
            asked.append(path)
            return CellBox(columns: min(8, maxColumns), rows: 3)
        }

        func preview(ofImageAt path: String, box: CellBox, mode: ImageMode) -> ImagePreview? {
            if escape { return .escape(Array("\u{1B}_Gimage\u{1B}\\".utf8)) }
            let cell = Cell("▒", style: CellStyle(foreground: 2))
            return .cells(Array(repeating: Array(repeating: cell, count: box.columns), count: box.rows))
        }
    }

    static let cat = ShownAttachment(kind: "image", name: "cat.png", size: 2048, uid: "c47")

    @Test func aVisibleImageIsFetchedThenDrawnInItsCell() {
        let previews = Previews()
        let update = ScreenUpdate(previews: previews)
        var session = F.Session(F.model(profile: RenderProfile(unicode: true, colors: 256, images: .symbols)), update: update)
        session.send(.dialogsLoaded([F.bobDialog]))
        session.send(.key(.enter))
        session.send(.conversationLoaded(F.bobDialog, messages: F.history(3) + [F.message(8000, from: F.bob, "", at: F.t0 + 5, attachments: [Self.cat])],
                                         pending: [], names: F.names))
        #expect(session.effects.filter { $0 == .fetchPreview(messageID: F.id(8000), attachment: 0) }.count == 1)
        session.send(.tick)
        #expect(session.effects.filter { $0 == .fetchPreview(messageID: F.id(8000), attachment: 0) }.count == 1, "asked once")
        session.send(.transfer(messageID: F.id(8000), attachment: 0, Transfer(direction: .preview, done: 1024, total: 2048),
                               localPath: nil))
        #expect(session.screen.contains("50 %"), "a fetch under way shows its progress: \(session.screen)")
        session.send(.transfer(messageID: F.id(8000), attachment: 0, Transfer(direction: .preview, done: 2048, total: 2048, outcome: .succeeded),
                               localPath: "/tmp/previews/c47"))
        let rows = session.screen.components(separatedBy: "\n")
        let drawn = rows.filter { $0.contains("│ ▒▒▒▒▒▒▒▒") }
        #expect(drawn.count == 3, "a block of 8×3 cells in the cell: \(session.screen)")
        #expect(previews.asked.contains("/tmp/previews/c47"))
        // Fetched only for its preview: no progress bar left and no "saved as", which
        // would read as if the user had saved the file.
        #expect(!session.screen.contains("saved as"), "\(session.screen)")
        #expect(!session.screen.contains("100 %"), "\(session.screen)")
        // Saved on request (`d`), it says where.
        session.send(.transfer(messageID: F.id(8000), attachment: 0, Transfer(direction: .download, done: 2048, total: 2048, outcome: .succeeded),
                               localPath: "./cat.png"))
        #expect(session.screen.contains("saved as ./cat.png"), "\(session.screen)")
    }

    @Test func withoutAProviderOrWithNoneAnImageIsItsNameAndSize() {
        var session = F.opened(messages: [F.message(8000, from: F.bob, "", at: F.t0, attachments: [Self.cat])])
        session.send(.tick)
        #expect(!session.effects.contains { if case .fetchPreview = $0 { return true } else { return false } })
        #expect(session.screen.contains("[image] cat.png · 2.0 KB"))
        let none = ScreenUpdate(previews: Previews())
        var off = F.opened(messages: [F.message(8000, from: F.bob, "", at: F.t0, attachments: [Self.cat])],
                           profile: RenderProfile(unicode: true, colors: 256, images: .none), update: none)
        off.send(.tick)
        #expect(!off.effects.contains { if case .fetchPreview = $0 { return true } else { return false } })
    }

    @Test func anEscapeImageIsPlacedOverBlankCellsForTheTerminal() {
        var cat = Self.cat
        cat.localPath = "/tmp/cat.png"
        let previews = Previews(escape: true)
        let session = F.opened(messages: [F.message(8000, from: F.bob, "", at: F.t0, attachments: [cat])],
                               profile: RenderProfile(unicode: true, colors: 256, images: .kitty), update: ScreenUpdate(previews: previews))
        let grid = ScreenRenderer(previews: previews).render(session.model)
        let placement = try! #require(grid.images.first)
        #expect(placement.box == CellBox(columns: 8, rows: 3))
        #expect(grid.text(row: placement.row).dropFirst(placement.column).prefix(8) == "        ", "blank under the image")
    }
}
