/// A preview as a picture: the escape sequences that draw it, and the cells it
/// covers from the cursor's position when they are written.
///
/// The writer puts the cursor at the footprint's top-left cell, writes `bytes`,
/// and moves the cursor back itself (terminals leave it in different places).
/// A sixel picture is pixels on the screen, gone when the cells under it are
/// redrawn; a kitty picture stays until deleted (`deleteKittyPictures`).
package struct PixelPayload: Sendable, Equatable {
    package enum GraphicsProtocol: String, Sendable, Equatable {
        /// DEC sixels: `ESC P … q` … `ESC \`.
        case sixel
        /// The kitty graphics protocol: `ESC _G …` chunks, placed over columns×rows cells.
        case kitty
    }

    package let graphicsProtocol: GraphicsProtocol
    package let footprint: CellFootprint
    package let bytes: [UInt8]

    /// Deletes every kitty picture on the screen (`a=d`): written before a redraw
    /// that moves them.
    package static let deleteKittyPictures: [UInt8] = Array("\u{1B}_Ga=d\u{1B}\\".utf8)
}
