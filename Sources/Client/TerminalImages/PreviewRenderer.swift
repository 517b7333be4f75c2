internal import CChafa
import Diagnostics

/// Pixels to a preview with chafa (loaded on first use, see CChafa); the only
/// file that touches it. Safe on any thread: each call makes, uses and frees its
/// own canvas, so decoding and drawing can run on a background queue.
package enum PreviewRenderer {
    /// `image` drawn in `style`, as large as fits in `box` (see
    /// `CellFootprint.fitting`); nil for `.none` or an empty box. `cell` is the
    /// terminal's cell size when known (`CellSize.assumed` otherwise).
    package static func render(_ image: DecodedImage, style: PreviewStyle, box: CellFootprint,
                              cell: CellSize? = nil) throws(Failure) -> RenderedPreview? {
        let cell = cell ?? .assumed
        let footprint = CellFootprint.fitting(imageWidth: image.width, imageHeight: image.height, in: box, cell: cell)
        guard !footprint.isEmpty else { return nil }
        switch style {
        case .none: return nil
        case .symbols(let depth, let symbols): return .symbols(try self.symbols(image, footprint: footprint, depth: depth, symbols: symbols))
        case .sixel: return .pixels(try pixels(image, footprint: footprint, cell: cell, protocol: .sixel))
        case .kitty: return .pixels(try pixels(image, footprint: footprint, cell: cell, protocol: .kitty))
        }
    }

    /// The file at `path` decoded (`ImageDecoder`) and drawn: the whole job, for a
    /// background queue.
    package static func render(fileAt path: String, style: PreviewStyle, box: CellFootprint, cell: CellSize? = nil,
                              limits: ImageLimits = .standard) throws(Failure) -> RenderedPreview? {
        if style == .none { return nil }
        return try render(ImageDecoder.decode(fileAt: path, limits: limits), style: style, box: box, cell: cell)
    }

    /// `image` as exactly `footprint`'s cells of symbols.
    package static func symbols(_ image: DecodedImage, footprint: CellFootprint, depth: ColorDepth,
                               symbols: SymbolSet) throws(Failure) -> SymbolGrid {
        try loadLibrary()
        let count = footprint.columns * footprint.rows
        guard count > 0 else { return SymbolGrid(footprint: footprint, cells: []) }
        var codePoints = [UInt32](repeating: 0, count: count)
        var foregrounds = [Int32](repeating: -1, count: count)
        var backgrounds = [Int32](repeating: -1, count: count)
        let colors: cchafa_colors = switch depth {
        case .trueColor: CCHAFA_COLORS_TRUECOLOR
        case .palette256: CCHAFA_COLORS_240
        case .palette16: CCHAFA_COLORS_16
        case .palette8: CCHAFA_COLORS_8
        case .none: CCHAFA_COLORS_NONE
        }
        let result = image.rgba.withUnsafeBufferPointer { rgba in
            cchafa_draw_symbols(rgba.baseAddress, Int32(image.width), Int32(image.height),
                                Int32(footprint.columns), Int32(footprint.rows), colors,
                                symbols == .ascii ? CCHAFA_SYMBOLS_ASCII : CCHAFA_SYMBOLS_UNICODE,
                                &codePoints, &foregrounds, &backgrounds)
        }
        guard result == 0 else { throw Failure(.invalidInput, "chafa could not draw this \(image.width)×\(image.height) image in \(footprint)") }
        let cells = (0..<count).map { i in
            // 0 is the right half of a wide character, which the symbol set leaves out.
            let character = Unicode.Scalar(codePoints[i]).map(Character.init) ?? " "
            return PreviewCell(codePoints[i] == 0 ? " " : character,
                               foreground: color(foregrounds[i], depth), background: color(backgrounds[i], depth))
        }
        return SymbolGrid(footprint: footprint, cells: cells)
    }

    /// `image` as a sixel or kitty picture covering exactly `footprint`'s cells of `cell` pixels.
    package static func pixels(_ image: DecodedImage, footprint: CellFootprint, cell: CellSize,
                              protocol graphics: PixelPayload.GraphicsProtocol) throws(Failure) -> PixelPayload {
        try loadLibrary()
        var length = 0
        let bytes = image.rgba.withUnsafeBufferPointer { rgba in
            cchafa_draw_pixels(rgba.baseAddress, Int32(image.width), Int32(image.height),
                               Int32(footprint.columns), Int32(footprint.rows), Int32(cell.width), Int32(cell.height),
                               graphics == .kitty ? CCHAFA_PIXELS_KITTY : CCHAFA_PIXELS_SIXEL, &length)
        }
        guard let bytes else {
            throw Failure(.invalidInput, "chafa could not draw this \(image.width)×\(image.height) image as \(graphics.rawValue) in \(footprint)")
        }
        defer { cchafa_free(bytes) }
        let payload = [UInt8](UnsafeRawBufferPointer(start: bytes, count: length))
        return PixelPayload(graphicsProtocol: graphics, footprint: footprint, bytes: payload)
    }

    /// A colour as chafa gives it: -1 for none, packed RGB in true colour, else a palette index.
    private static func color(_ value: Int32, _ depth: ColorDepth) -> PreviewColor? {
        guard value >= 0 else { return nil }
        switch depth {
        case .none: return nil
        case .trueColor:
            return .rgb(red: UInt8(truncatingIfNeeded: value >> 16), green: UInt8(truncatingIfNeeded: value >> 8),
                        blue: UInt8(truncatingIfNeeded: value))
        case .palette256, .palette16, .palette8: return .palette(UInt8(truncatingIfNeeded: value))
        }
    }

    private static func loadLibrary() throws(Failure) {
        guard cchafa_load() == 0 else {
            throw Failure(.failure, "cannot load chafa to draw image previews: \(String(cString: cchafa_load_error()))",
                                    hint: "is the libchafa0 package installed?")
        }
    }
}
