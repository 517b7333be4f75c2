/// An image's pixels: `width`×`height` RGBA, 8 bits a channel, alpha not
/// premultiplied, rows top to bottom with no padding.
public struct DecodedImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let rgba: [UInt8]

    /// Fails (nil) unless `rgba` holds exactly `width`×`height` pixels.
    public init?(width: Int, height: Int, rgba: [UInt8]) {
        guard width > 0, height > 0, rgba.count / 4 / width == height, rgba.count == width * height * 4 else { return nil }
        self.width = width; self.height = height; self.rgba = rgba
    }
}
