import TerminalImages
import Testing

/// A preview keeps its image's shape in cells that are not square, fits its box,
/// and is never blown up past the image's own size.
@Suite struct CellFootprintTests {
    static let box = CellFootprint(columns: 40, rows: 10)

    @Test func aSquareImageIsTwiceAsManyColumnsAsRowsInHalfWideCells() {
        let footprint = CellFootprint.fitting(imageWidth: 1000, imageHeight: 1000, in: Self.box)
        #expect(footprint == CellFootprint(columns: 20, rows: 10))
    }

    @Test func aWideImageFillsTheWidthAndKeepsItsShape() {
        // 4:1 in pixels is 8:1 in 1:2 cells: 40 columns, 5 rows.
        #expect(CellFootprint.fitting(imageWidth: 4000, imageHeight: 1000, in: Self.box) == CellFootprint(columns: 40, rows: 5))
    }

    @Test func theTerminalsCellSizeIsUsedWhenKnown() {
        // Square cells: a square image is as many columns as rows.
        let square = CellSize(width: 10, height: 10)
        #expect(CellFootprint.fitting(imageWidth: 1000, imageHeight: 1000, in: Self.box, cell: square) == CellFootprint(columns: 10, rows: 10))
        // 9×18 cells from a 1440×720-pixel window of 160×40 cells.
        let reported = CellSize(columns: 160, rows: 40, pixelWidth: 1440, pixelHeight: 720)
        #expect(reported == CellSize(width: 9, height: 18))
        #expect(CellFootprint.fitting(imageWidth: 900, imageHeight: 180, in: Self.box, cell: reported!) == CellFootprint(columns: 40, rows: 4))
    }

    @Test func aTerminalThatReportsNoPixelsHasNoCellSize() {
        #expect(CellSize(columns: 80, rows: 24, pixelWidth: 0, pixelHeight: 0) == nil)
        #expect(CellSize(columns: 0, rows: 0, pixelWidth: 640, pixelHeight: 480) == nil)
    }

    @Test func aSmallImageIsNotBlownUp() {
        // 32×32 pixels at 8×16 a cell: 4×2 cells, in a box that could hold far more.
        #expect(CellFootprint.fitting(imageWidth: 32, imageHeight: 32, in: Self.box) == CellFootprint(columns: 4, rows: 2))
        #expect(CellFootprint.fitting(imageWidth: 1, imageHeight: 1, in: Self.box) == CellFootprint(columns: 1, rows: 1))
    }

    @Test func aLineOfPixelsStillTakesACell() {
        #expect(CellFootprint.fitting(imageWidth: 16_000, imageHeight: 1, in: Self.box) == CellFootprint(columns: 40, rows: 1))
        #expect(CellFootprint.fitting(imageWidth: 1, imageHeight: 16_000, in: Self.box) == CellFootprint(columns: 1, rows: 10))
    }

    @Test func anEmptyBoxHoldsNothing() {
        #expect(CellFootprint.fitting(imageWidth: 100, imageHeight: 100, in: CellFootprint(columns: 0, rows: 10)) == .zero)
        #expect(CellFootprint.fitting(imageWidth: 100, imageHeight: 100, in: CellFootprint(columns: -3, rows: 10)).isEmpty)
        #expect(CellFootprint.fitting(imageWidth: 0, imageHeight: 100, in: Self.box) == .zero)
    }
}
