import ChatView
import Foundation
import Testing
import TerminalImages
import TestSupport
@testable import ChatctlCLI

/// The chat view, its `drawPreview` effects carried out by this drawer and answered
/// with `previewDrawn`, shows an image attachment as cells of its own: red where the
/// picture is red, blue where it is blue.
@Suite struct ChatPreviewDrawerTests {
    static let me = 1, bob = 2
    static let dialog = DialogSummary(id: "d0000000000000000000000b", title: "bob", kind: .private, peerID: bob)
    static let t0 = 1_796_057_460
    /// 256 colours, Unicode, no sixel or kitty: `--images auto` gives symbols.
    static let xterm = TerminalTraits(environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"])

    let directory: TemporaryDirectory
    let drawn = ResultBox<(PreviewRequest, ImagePreview)>()
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("screenshot.png")
        // 128×32: 16×2 cells of 8×16, red on the left, blue on the right.
        try Data(Self.splitBMP(width: 128, height: 32)).write(to: URL(fileURLWithPath: path))
    }

    func drawer(_ terminal: TerminalTraits = xterm) -> ChatPreviewDrawer {
        ChatPreviewDrawer(terminal: terminal) { [drawn] request, preview in drawn.append((request, preview)) }
    }

    /// Bob's conversation open, its one message an image at `path`, on the screen
    /// once the drawer has answered what the update asked for.
    func screen(_ profile: RenderProfile, terminal: TerminalTraits = xterm) throws -> CellGrid {
        let attachment = ShownAttachment(kind: "image", name: "screenshot.png", size: 4096, uid: "u1", localPath: path)
        let message = ShownMessage(id: "000000000000000000000001", dialogID: Self.dialog.id, senderID: Self.bob, senderName: "bob",
                                   text: "", dateSent: Self.t0, outgoing: false, attachments: [attachment])
        let update = ScreenUpdate()
        var model = ScreenModel(me: Self.me, width: 80, height: 24, now: Double(Self.t0 + 30), profile: profile)
        var asked: [PreviewRequest] = []
        for event: ScreenEvent in [.dialogsLoaded([Self.dialog]), .connection(.connected), .key(.enter),
                                   .conversationLoaded(Self.dialog, messages: [message], pending: [], names: [Self.bob: "bob"])] {
            let (next, effects) = update.update(model, event, now: model.now)
            model = next
            asked += effects.compactMap { if case .drawPreview(let request) = $0 { request } else { nil } }
        }
        #expect(asked == [PreviewRequest(path: path, room: CellBox(columns: 49, rows: 12), profile: profile)])
        let drawer = drawer(terminal)
        for request in asked { drawer.draw(request) }
        guard drawn.wait(count: asked.count, timeout: 30).count == asked.count else { throw TestSupportError("the image was never drawn") }
        for (request, preview) in drawn.all { model = update.update(model, .previewDrawn(request, preview), now: model.now).0 }
        return ScreenRenderer().render(model)
    }

    /// A 24-bit BMP of `width`×`height` (a multiple of 4 wide), red on the left half and blue
    /// on the right, written byte by byte: no image library needed to make it.
    static func splitBMP(width: Int, height: Int) -> [UInt8] {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let pixels = width * height * 3
        let header = Array("BM".utf8) + le32(54 + pixels) + le32(0) + le32(54)
            + le32(40) + le32(width) + le32(height) + [1, 0, 24, 0] + le32(0) + le32(pixels) + [UInt8](repeating: 0, count: 16)
        // Rows bottom up, each pixel blue, green, red.
        let row = (0..<width).flatMap { x -> [UInt8] in x < width / 2 ? [0, 0, 255] : [255, 0, 0] }
        return header + (0..<height).flatMap { _ in row }
    }

    /// Where each cell of a colour is, row by row.
    static func cells(_ grid: CellGrid, background: UInt8) -> [(row: Int, column: Int)] {
        (0..<grid.height).flatMap { row in (0..<grid.width).filter { grid[row, $0].style.background == background }.map { (row, $0) } }
    }

    @Test func anImageShowsAsColouredCellsInItsMessage() throws {
        let grid = try screen(RenderProfile(unicode: true, colors: 256, images: .auto))
        // xterm's 196 is red, 21 blue: two rows of the image, red columns left of blue ones.
        let red = Self.cells(grid, background: 196), blue = Self.cells(grid, background: 21)
        #expect(Set(red.map(\.row)).count == 2 && Set(red.map(\.row)) == Set(blue.map(\.row)), "\(grid.snapshot)")
        #expect(red.map(\.column).max()! < blue.map(\.column).min()!)
        #expect(red.count + blue.count >= 28 && red.count + blue.count <= 32)
        #expect(grid.images.isEmpty)
    }

    @Test func withoutColoursTheCellsHaveNone() throws {
        let grid = try screen(RenderProfile(unicode: true, colors: 0, images: .symbols))
        #expect(grid.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
        #expect(ChatPreviewDrawer.style(for: RenderProfile(unicode: true, colors: 0, images: .symbols), on: Self.xterm)
                == .symbols(.none, .unicode))
    }

    @Test func kittyIsAnEscapePayloadOverBlankCells() throws {
        let grid = try screen(RenderProfile(unicode: true, colors: 256, images: .kitty))
        let placement = try #require(grid.images.first)
        #expect(placement.box == CellBox(columns: 16, rows: 2))
        #expect(placement.payload.starts(with: Array("\u{1B}_G".utf8)))
    }

    @Test func autoTakesTheTerminalsWordAndTheViewsColours() {
        let profile = RenderProfile(unicode: false, colors: 8, images: .auto)
        #expect(ChatPreviewDrawer.style(for: profile, on: Self.xterm) == .symbols(.palette8, .ascii))
        #expect(ChatPreviewDrawer.style(for: profile, on: TerminalTraits(environment: ["TERM": "xterm-kitty"])) == .kitty)
        #expect(ChatPreviewDrawer.style(for: RenderProfile(images: .none), on: Self.xterm) == PreviewStyle.none)
    }

    @Test func eachRequestIsDrawnInItsOwnRoom() throws {
        let drawer = drawer()
        let profile = RenderProfile(unicode: true, colors: 256, images: .symbols)
        let small = PreviewRequest(path: path, room: CellBox(columns: 8, rows: 12), profile: profile)
        let large = PreviewRequest(path: path, room: CellBox(columns: 40, rows: 12), profile: profile)
        drawer.draw(small)
        drawer.draw(large)
        let answers = drawn.wait(count: 2, timeout: 30)
        try #require(answers.count == 2)
        // The picture is 16×2 cells at its own size: never larger, its shape kept when shrunk.
        #expect(answers.first { $0.0 == small }?.1.box == CellBox(columns: 8, rows: 1))
        #expect(answers.first { $0.0 == large }?.1.box == CellBox(columns: 16, rows: 2))
    }

    @Test func anImageThatCannotBeShownSaysWhyInItsCell() throws {
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: path))
        let grid = try screen(RenderProfile(unicode: true, colors: 256, images: .auto))
        guard case .unavailable(let reason)? = drawn.first?.1 else { Issue.record("drawn: \(String(describing: drawn.first))"); return }
        #expect(reason.hasPrefix("not an image that can be previewed"))
        #expect(grid.snapshot.contains("screenshot.png"))
        #expect(grid.snapshot.contains("no preview: not an image that can be"), "\(grid.snapshot)")
        #expect(Self.cells(grid, background: 196).isEmpty)
    }
}
