import Diagnostics

/// How big an image may be before it is refused. Images come from other users, so
/// each bound is checked before the memory it implies is taken: the file's size
/// before it is read, the pixels (from the header alone) before it is decoded.
package struct ImageLimits: Sendable, Equatable {
    /// The longest side, in pixels.
    package var maxSide: Int
    /// Width × height: 64 MP decode to 256 MiB of RGBA, held twice for a moment.
    package var maxPixels: Int
    /// The file's size: it is read whole before its header is looked at.
    package var maxFileBytes: Int

    package init(maxSide: Int = 16_384, maxPixels: Int = 64_000_000, maxFileBytes: Int = 64 << 20) {
        self.maxSide = maxSide; self.maxPixels = maxPixels
        // stb_image takes the length as a C int.
        self.maxFileBytes = min(maxFileBytes, Int(Int32.max))
    }

    package static let standard = ImageLimits()

    /// Refuses a `width`×`height` image over the limits.
    package func check(width: Int, height: Int, format: ImageFormat) throws(Failure) {
        guard width > 0, height > 0 else {
            throw Failure(.invalidInput, "this \(format.rawValue) says it is \(width)×\(height) pixels")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if max(width, height) > maxSide || overflow || pixels > maxPixels {
            throw Failure(.invalidInput, "this \(format.rawValue) is \(width)×\(height) pixels, too large to preview",
                                    hint: "previews stop at \(maxSide) pixels on a side and \(maxPixels / 1_000_000) megapixels")
        }
    }
}
