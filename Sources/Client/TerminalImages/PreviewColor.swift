/// A colour of a symbol cell, in the terms of the `ColorDepth` it was drawn with.
package enum PreviewColor: Sendable, Hashable {
    case rgb(red: UInt8, green: UInt8, blue: UInt8)
    /// An index into the terminal's palette: 16–255 for `.palette256`, 0–15 for
    /// `.palette16`, 0–7 for `.palette8`.
    case palette(UInt8)
}
