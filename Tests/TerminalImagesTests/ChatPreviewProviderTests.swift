import ChatView
import Foundation
import Testing
import TerminalImages
import TestSupport

/// The chat view, given this provider, shows an image attachment as cells of its
/// own: red where the picture is red, blue where it is blue.
@Suite struct ChatPreviewProviderTests {
    static let me = 1, bob = 2
    static let dialog = DialogSummary(id: "d0000000000000000000000b", title: "bob", kind: .private, peerID: bob)
    static let t0 = 1_796_057_460
    /// 256 colours, Unicode, no sixel or kitty: `--images auto` gives symbols.
    static let xterm = TerminalTraits(environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"])

    let directory: TemporaryDirectory
    let ready = ResultBox<String>()
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("screenshot.png")
        // 128×32: 16×2 cells of 8×16, red on the left, blue on the right.
        try Data(TestImage.encode(TestImage.split(width: 128, height: 32), as: .png)).write(to: URL(fileURLWithPath: path))
    }

    func provider(_ profile: RenderProfile, terminal: TerminalTraits = xterm) -> ChatPreviewProvider {
        ChatPreviewProvider(terminal: terminal, profile: profile) { [ready] path in ready.append(path) }
    }

    /// Bob's conversation open, its one message an image at `path`.
    func screen(_ profile: RenderProfile, provider: ChatPreviewProvider) -> CellGrid {
        let attachment = ShownAttachment(kind: "image", name: "screenshot.png", size: 4096, uid: "u1", localPath: path)
        let message = ShownMessage(id: "000000000000000000000001", dialogID: Self.dialog.id, senderID: Self.bob, senderName: "bob",
                                   text: "", dateSent: Self.t0, outgoing: false, attachments: [attachment])
        let update = ScreenUpdate(previews: provider)
        var model = ScreenModel(me: Self.me, width: 80, height: 24, now: Double(Self.t0 + 30), profile: profile)
        for event: ScreenEvent in [.dialogsLoaded([Self.dialog]), .connection(.connected), .key(.enter),
                                   .conversationLoaded(Self.dialog, messages: [message], pending: [], names: [Self.bob: "bob"])] {
            model = update.update(model, event, now: model.now).0
        }
        return ScreenRenderer(previews: provider).render(model)
    }

    /// The screen once the image has been decoded (the first ask starts it).
    func screenOnceReady(_ profile: RenderProfile, provider: ChatPreviewProvider) throws -> CellGrid {
        _ = screen(profile, provider: provider)
        guard ready.wait(count: 1, timeout: 30).count == 1 else { throw TestSupportError("the image never loaded") }
        return screen(profile, provider: provider)
    }

    /// Where each cell of a colour is, row by row.
    static func cells(_ grid: CellGrid, background: UInt8) -> [(row: Int, column: Int)] {
        (0..<grid.height).flatMap { row in (0..<grid.width).filter { grid[row, $0].style.background == background }.map { (row, $0) } }
    }

    @Test func anImageShowsAsColouredCellsInItsMessage() throws {
        let profile = RenderProfile(unicode: true, colors: 256, images: .auto)
        let provider = provider(profile)
        #expect(!screen(profile, provider: provider).snapshot.isEmpty)
        let grid = try screenOnceReady(profile, provider: provider)
        // xterm's 196 is red, 21 blue: two rows of the image, red columns left of blue ones.
        let red = Self.cells(grid, background: 196), blue = Self.cells(grid, background: 21)
        #expect(Set(red.map(\.row)).count == 2 && Set(red.map(\.row)) == Set(blue.map(\.row)), "\(grid.snapshot)")
        #expect(red.map(\.column).max()! < blue.map(\.column).min()!)
        #expect(red.count + blue.count >= 28 && red.count + blue.count <= 32)
        #expect(grid.images.isEmpty)
    }

    @Test func withoutColoursTheCellsHaveNone() throws {
        let profile = RenderProfile(unicode: true, colors: 0, images: .symbols)
        let grid = try screenOnceReady(profile, provider: provider(profile))
        #expect(grid.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
        #expect(provider(profile).style(for: .symbols) == .symbols(.none, .unicode))
    }

    @Test func kittyIsAnEscapePayloadOverBlankCells() throws {
        let profile = RenderProfile(unicode: true, colors: 256, images: .kitty)
        let grid = try screenOnceReady(profile, provider: provider(profile))
        let placement = try #require(grid.images.first)
        #expect(placement.box == CellBox(columns: 16, rows: 2))
        #expect(placement.payload.starts(with: Array("\u{1B}_G".utf8)))
    }

    @Test func autoTakesTheTerminalsWordAndTheViewsColours() {
        let profile = RenderProfile(unicode: false, colors: 8, images: .auto)
        #expect(provider(profile).style(for: .auto) == .symbols(.palette8, .ascii))
        #expect(provider(profile, terminal: TerminalTraits(environment: ["TERM": "xterm-kitty"])).style(for: .auto) == .kitty)
        #expect(provider(profile).style(for: .none) == PreviewStyle.none)
    }

    @Test func anImageThatCannotBeShownHasNoBox() throws {
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: path))
        let profile = RenderProfile(unicode: true, colors: 256, images: .auto)
        let provider = provider(profile)
        let grid = try screenOnceReady(profile, provider: provider)
        #expect(provider.box(forImageAt: path, maxColumns: 40, maxRows: 12, mode: .auto) == nil)
        #expect(grid.snapshot.contains("screenshot.png"))
        #expect(Self.cells(grid, background: 196).isEmpty)
    }
}
