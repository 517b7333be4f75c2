import Foundation
import Testing
import TerminalImages
import TestSupport

/// Image files drawn off the caller's thread, each in the room it was asked for, or told why not.
@Suite struct PreviewDrawerTests {
    /// 256 colours, Unicode.
    static let xterm = TerminalTraits(environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"])
    static let symbols = PreviewStyle.symbols(.palette256, .unicode)

    let directory: TemporaryDirectory
    let drawn = ResultBox<(CellFootprint, PreviewDrawer.Outcome)>()
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("screenshot.png")
        // 128×32: 16×2 cells of 8×16.
        try Data(TestImage.encode(TestImage.split(width: 128, height: 32), as: .png)).write(to: URL(fileURLWithPath: path))
    }

    func draw(_ drawer: PreviewDrawer, in room: CellFootprint, style: PreviewStyle = symbols) {
        drawer.draw(path, room: room, style: style) { [drawn] outcome in drawn.append((room, outcome)) }
    }

    @Test func eachFileIsDrawnInItsOwnRoom() throws {
        let drawer = PreviewDrawer(terminal: Self.xterm)
        let small = CellFootprint(columns: 8, rows: 12), large = CellFootprint(columns: 40, rows: 12)
        draw(drawer, in: small)
        draw(drawer, in: large)
        let answers = drawn.wait(count: 2, timeout: 30)
        try #require(answers.count == 2)
        // The picture is 16×2 cells at its own size: never larger, its shape kept when shrunk.
        #expect(try answers.first { $0.0 == small }?.1.get()?.footprint == CellFootprint(columns: 8, rows: 1))
        #expect(try answers.first { $0.0 == large }?.1.get()?.footprint == CellFootprint(columns: 16, rows: 2))
    }

    @Test func noStyleDrawsNothing() throws {
        draw(PreviewDrawer(terminal: Self.xterm), in: CellFootprint(columns: 40, rows: 12), style: .none)
        let answer = try #require(drawn.wait(count: 1, timeout: 30).first)
        #expect(try answer.1.get() == nil)
    }

    @Test func aFileThatIsNoImageSaysWhy() throws {
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: path))
        draw(PreviewDrawer(terminal: Self.xterm), in: CellFootprint(columns: 40, rows: 12))
        let answer = try #require(drawn.wait(count: 1, timeout: 30).first)
        guard case .failure(let error) = answer.1 else { Issue.record("drawn: \(answer.1)"); return }
        #expect(error.description.hasPrefix("not an image that can be previewed"))
    }
}
