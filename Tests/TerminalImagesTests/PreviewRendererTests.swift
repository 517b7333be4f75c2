import Foundation
import Diagnostics
import TerminalImages
import Testing
import TestSupport

/// chafa draws what the image shows: red on the left stays red on the left, in
/// whatever colours the terminal has, and pictures come out in their protocol's
/// escape sequences, covering the cells they say.
@Suite struct PreviewRendererTests {
    static let box = CellFootprint(columns: 16, rows: 8)
    /// 128×32 pixels: 16×2 cells of 8×16, the halves meeting between columns 7 and 8.
    static let split = TestImage.split(width: 128, height: 32)

    static func grid(_ depth: ColorDepth, _ symbols: SymbolSet = .unicode, of image: DecodedImage = split) throws -> SymbolGrid {
        guard case .symbols(let grid) = try PreviewRenderer.render(image, style: .symbols(depth, symbols), box: box) else {
            throw TestSupportError("no symbols")
        }
        return grid
    }

    /// The colours a cell shows (both, unless its character is a space, which shows only its background).
    static func shown(_ cell: PreviewCell) -> [PreviewColor] {
        (cell.character == " " ? [cell.background] : [cell.foreground, cell.background]).compactMap { $0 }
    }

    /// Every colour of every cell as a palette index, -1 for one that is not.
    static func paletteIndices(_ grid: SymbolGrid) -> [Int] {
        grid.cells.flatMap { [$0.foreground, $0.background].compactMap { $0 } }.map { color in
            if case .palette(let index) = color { Int(index) } else { -1 }
        }
    }

    static func redness(_ color: PreviewColor) -> Int {
        guard case .rgb(let red, _, let blue) = color else { return 0 }
        return Int(red) - Int(blue)
    }

    @Test func aRedAndBlueImageIsRedOnTheLeftAndBlueOnTheRightInTrueColour() throws {
        let grid = try Self.grid(.trueColor)
        #expect(grid.footprint == CellFootprint(columns: 16, rows: 2))
        for row in 0..<2 {
            for column in 0..<16 {
                let colors = Self.shown(grid[column, row])
                #expect(!colors.isEmpty)
                let redness = colors.map(Self.redness).reduce(0, +)
                #expect(column < 8 ? redness > 0 : redness < 0, "cell \(column),\(row): \(grid[column, row])")
            }
            // Away from the middle, pure.
            #expect(Self.shown(grid[0, row]).allSatisfy { $0 == .rgb(red: 255, green: 0, blue: 0) })
            #expect(Self.shown(grid[15, row]).allSatisfy { $0 == .rgb(red: 0, green: 0, blue: 255) })
        }
    }

    @Test func twoHundredFiftySixColoursAreThePalettesRedAndBlue() throws {
        let grid = try Self.grid(.palette256)
        // xterm's 196 is #ff0000, 21 is #0000ff; the 16 themed colours are never used.
        #expect(Self.shown(grid[0, 0]) .allSatisfy { $0 == .palette(196) })
        #expect(Self.shown(grid[15, 1]).allSatisfy { $0 == .palette(21) })
        #expect(Self.paletteIndices(grid).allSatisfy { $0 >= 16 })
        #expect(!Self.paletteIndices(grid).isEmpty)
    }

    @Test func sixteenColoursAreTheBrightRedAndBlue() throws {
        let grid = try Self.grid(.palette16)
        #expect(Self.shown(grid[0, 0]).allSatisfy { $0 == .palette(9) })
        #expect(Self.shown(grid[15, 0]).allSatisfy { $0 == .palette(12) })
        #expect(Self.paletteIndices(grid).allSatisfy { (0..<16).contains($0) })
    }

    @Test func eightColoursAreThePlainRedAndBlue() throws {
        let grid = try Self.grid(.palette8)
        #expect(Self.shown(grid[0, 0]).allSatisfy { $0 == .palette(1) })
        #expect(Self.shown(grid[15, 1]).allSatisfy { $0 == .palette(4) })
        #expect(Self.paletteIndices(grid).allSatisfy { (0..<8).contains($0) })
    }

    @Test func noColorGivesShapesWithoutColours() throws {
        // Black and white halves: with no colours at all, the shape alone shows them.
        let image = TestImage.split(width: 128, height: 32, left: (0, 0, 0, 255), right: (255, 255, 255, 255))
        let grid = try Self.grid(.none, of: image)
        #expect(grid.cells.allSatisfy { $0.foreground == nil && $0.background == nil })
        #expect(grid.footprint == CellFootprint(columns: 16, rows: 2))
        let left = Set(grid.rows[0].prefix(6).map(\.character)), right = Set(grid.rows[0].suffix(6).map(\.character))
        #expect(left != right, "\(grid.text)")
    }

    @Test func asciiSymbolsArePrintableASCII() throws {
        let image = TestImage.split(width: 128, height: 32, left: (0, 0, 0, 255), right: (255, 255, 255, 255))
        let grid = try Self.grid(.palette16, .ascii, of: image)
        #expect(grid.cells.allSatisfy { $0.character.isASCII && !$0.character.isNewline && $0.character.asciiValue! >= 0x20 })
    }

    @Test func unicodeSymbolsAreOneColumnEach() throws {
        // A photograph-like gradient brings out the whole symbol set.
        var rgba: [UInt8] = []
        for y in 0..<64 { for x in 0..<128 { rgba += [UInt8(x * 2), UInt8(y * 4), UInt8((x + y) % 256), 255] } }
        let grid = try Self.grid(.trueColor, of: DecodedImage(width: 128, height: 64, rgba: rgba)!)
        for cell in grid.cells {
            let scalar = cell.character.unicodeScalars.first!.value
            // Space, box drawing (U+2500–257F) and block elements (U+2580–259F).
            #expect(cell.character.unicodeScalars.count == 1 && (scalar == 0x20 || (0x2500...0x259F).contains(scalar)), "\(cell.character)")
        }
    }

    @Test func transparentPixelsHaveNoColour() throws {
        let image = TestImage.split(width: 128, height: 32, left: (0, 0, 0, 0), right: TestImage.blue)
        let grid = try Self.grid(.trueColor, of: image)
        #expect(grid[0, 0] == PreviewCell(" "))
        #expect(Self.shown(grid[15, 0]).allSatisfy { $0 == .rgb(red: 0, green: 0, blue: 255) })
    }

    @Test func aSixelPayloadIsOneDeviceControlStringOverItsFootprint() throws {
        let cell = CellSize(width: 10, height: 20)
        let rendered = try #require(try PreviewRenderer.render(Self.split, style: .sixel, box: Self.box, cell: cell))
        guard case .pixels(let payload) = rendered else { Issue.record("\(rendered)"); return }
        // 128×32 pixels in 10×20 cells: 13×2 cells.
        #expect(payload.footprint == CellFootprint(columns: 13, rows: 2))
        #expect(rendered.footprint == payload.footprint)
        #expect(payload.graphicsProtocol == .sixel)
        let text = String(decoding: payload.bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}P"), "\(text.prefix(20).debugDescription)")
        #expect(text.hasSuffix("\u{1B}\\"))
        // The picture is at most the footprint's pixels (130×40): it stays inside its cells.
        let picture = try #require(SixelPicture(text))
        #expect(picture.width <= 130 && picture.height <= 40 && picture.width > 100, "\(picture.width)×\(picture.height)")
        // Red on the left, blue on the right (RGB in percent).
        for y in [0, picture.height / 2, picture.height - 1] {
            let left = try #require(picture[x: 1, y: y]), right = try #require(picture[x: picture.width - 2, y: y])
            #expect(left[0] > 90 && left[2] < 10, "\(left) at 1,\(y)")
            #expect(right[2] > 90 && right[0] < 10, "\(right) at \(picture.width - 2),\(y)")
        }
    }

    @Test func aKittyPayloadIsGraphicsCommandsPlacedOverItsFootprint() throws {
        let rendered = try #require(try PreviewRenderer.render(Self.split, style: .kitty, box: Self.box))
        guard case .pixels(let payload) = rendered else { Issue.record("\(rendered)"); return }
        #expect(payload.graphicsProtocol == .kitty)
        #expect(payload.footprint == CellFootprint(columns: 16, rows: 2))
        let text = String(decoding: payload.bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}_G"))
        #expect(text.hasSuffix("\u{1B}\\"))
        // The placement covers exactly the footprint's columns and rows.
        #expect(text.contains("c=16,r=2"), "\(text.prefix(60).debugDescription)")
        #expect(String(decoding: PixelPayload.deleteKittyPictures, as: UTF8.self) == "\u{1B}_Ga=d\u{1B}\\")
    }

    @Test func noneAndAnEmptyBoxDrawNothing() throws {
        #expect(try PreviewRenderer.render(Self.split, style: .none, box: Self.box) == nil)
        #expect(try PreviewRenderer.render(Self.split, style: .kitty, box: .zero) == nil)
    }

    @Test func aFileIsDecodedAndDrawnInOneCallOffTheMainThread() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("split.png")
        try Data(TestImage.encode(Self.split, as: .png)).write(to: URL(fileURLWithPath: path))
        let rendered = try await Task.detached {
            try PreviewRenderer.render(fileAt: path, style: .symbols(.trueColor, .unicode), box: Self.box)
        }.value
        #expect(rendered?.footprint == CellFootprint(columns: 16, rows: 2))
        let truncated = directory.file("truncated.png")
        try Data(TestImage.encode(Self.split, as: .png).prefix(100)).write(to: URL(fileURLWithPath: truncated))
        #expect(throws: Failure.self) { try PreviewRenderer.render(fileAt: truncated, style: .kitty, box: Self.box) }
    }
}
