import CStbImageWrite
import TerminalImages

/// Images the tests make: pixels drawn here, encoded by stb_image_write, or
/// headers written byte by byte to say what no real file should.
enum TestImage {
    typealias RGBA = (UInt8, UInt8, UInt8, UInt8)
    static let red: RGBA = (255, 0, 0, 255)
    static let blue: RGBA = (0, 0, 255, 255)

    /// `width`×`height` pixels, `left` on the left half and `right` on the right.
    static func split(width: Int, height: Int, left: RGBA = red, right: RGBA = blue) -> DecodedImage {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(width * height * 4)
        for _ in 0..<height {
            for x in 0..<width {
                let pixel = x < width / 2 ? left : right
                rgba += [pixel.0, pixel.1, pixel.2, pixel.3]
            }
        }
        return DecodedImage(width: width, height: height, rgba: rgba)!
    }

    enum Encoding { case png, jpeg, bmp }

    /// `image` in a file format, by stb_image_write.
    static func encode(_ image: DecodedImage, as encoding: Encoding) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let write: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32) -> Void = { context, data, size in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            sink.bytes += UnsafeRawBufferPointer(start: data, count: Int(size))
        }
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let width = Int32(image.width), height = Int32(image.height)
        let written = image.rgba.withUnsafeBytes { pixels in
            switch encoding {
            case .png: stbi_write_png_to_func(write, context, width, height, 4, pixels.baseAddress, width * 4)
            case .jpeg: stbi_write_jpg_to_func(write, context, width, height, 4, pixels.baseAddress, 95)
            case .bmp: stbi_write_bmp_to_func(write, context, width, height, 4, pixels.baseAddress)
            }
        }
        precondition(written != 0 && !sink.bytes.isEmpty, "stb_image_write failed")
        return sink.bytes
    }

    /// A PNG signature and an IHDR chunk for `width`×`height` (8-bit RGBA unless
    /// told), CRC and all, and nothing after it: a header with no image.
    static func pngHeader(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 6) -> [UInt8] {
        let data = bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, 0]
        let type = Array("IHDR".utf8)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(UInt32(data.count)) + type + data + bigEndian(crc32(type + data))
    }

    /// A BITMAPINFOHEADER BMP header for `width`×`height`, 24 bits a pixel, no pixels.
    static func bmpHeader(width: UInt32, height: UInt32) -> [UInt8] {
        let fileHeader = Array("BM".utf8) + littleEndian(UInt32(54)) + littleEndian(UInt32(0)) + littleEndian(UInt32(54))
        let infoHeader = littleEndian(UInt32(40)) + littleEndian(width) + littleEndian(height)
            + [1, 0, 24, 0] + littleEndian(UInt32(0)) + littleEndian(UInt32(0)) + [UInt8](repeating: 0, count: 16)
        return fileHeader + infoHeader
    }

    /// A GIF's header and logical screen for `width`×`height`, with no frame.
    static func gifHeader(width: UInt16, height: UInt16) -> [UInt8] {
        Array("GIF89a".utf8) + [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0, 0, 0]
    }

    /// A 2×1 GIF, a red pixel and a blue one, then a second frame all green, which
    /// a preview never shows: global colour table red, blue; LZW codes 0, 1, end.
    static let twoFrameGIF: [UInt8] = Array("GIF89a".utf8) + [
        2, 0, 1, 0, 0x80, 0, 0,              // 2×1, a global table of 2 colours
        255, 0, 0, 0, 0, 255,                // red, blue
        0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0,     // frame 1: the whole screen
        2, 2, 0x44, 0x0A, 0,                 // min code size 2; clear, 0, 1, end (3-bit codes)
        0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0x80,  // frame 2, with its own table of 2: green, green
        0, 255, 0, 0, 255, 0,
        2, 2, 0x04, 0x0A, 0,                 // clear, 0, 0, end: both green
        0x3B,
    ]

    static func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func littleEndian(_ value: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
