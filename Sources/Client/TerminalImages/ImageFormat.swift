import Diagnostics

/// The formats previewed, told by their first bytes (never by a file's name). stb_image
/// also knows PSD, TGA, HDR, PIC and PNM; they are refused here before it sees them,
/// so that only its most used decoders read other users' files.
package enum ImageFormat: String, Sendable, CaseIterable {
    case png = "PNG", jpeg = "JPEG", gif = "GIF", bmp = "BMP"

    /// The format of a file starting with `prefix` (a dozen bytes suffice).
    package static func sniff(_ prefix: some Collection<UInt8>) throws(Failure) -> ImageFormat {
        let bytes = Array(prefix.prefix(12))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        let ascii = { (text: String) in Array(text.utf8) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return .gif }
        if starts(ascii("BM")) { return .bmp }
        let known: String? =
            if starts(ascii("RIFF")) && starts(ascii("WEBP"), at: 8) { "WebP" }
            else if starts(ascii("ftyp"), at: 4) && (starts(ascii("avif"), at: 8) || starts(ascii("avis"), at: 8)) { "AVIF" }
            else if starts(ascii("ftyp"), at: 4) && (starts(ascii("heic"), at: 8) || starts(ascii("heix"), at: 8) || starts(ascii("mif1"), at: 8)) { "HEIF" }
            else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { "TIFF" }
            else { nil }
        let supported = "stb_image decodes PNG, JPEG, GIF and BMP here"
        if let known {
            throw Failure(.invalidInput, "\(known) images have no preview: \(supported)")
        }
        throw Failure(.invalidInput, "not an image that can be previewed: \(supported)")
    }
}
