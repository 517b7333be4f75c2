/// An image's pixels: `width`×`height` RGBA, 8 bits a channel, alpha not
/// premultiplied, rows top to bottom with no padding.
package struct DecodedImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    package let rgba: [UInt8]

    /// Fails (nil) unless `rgba` holds exactly `width`×`height` pixels.
    package init?(width: Int, height: Int, rgba: [UInt8]) {
        guard width > 0, height > 0, rgba.count / 4 / width == height, rgba.count == width * height * 4 else { return nil }
        self.width = width; self.height = height; self.rgba = rgba
    }
}
