import Foundation
import Diagnostics
import TerminalImages
import Testing
import TestSupport

/// Files from other users become pixels, or one clear error: never a crash, and
/// never memory taken on a header's word before the limits have read it.
@Suite struct ImageDecoderTests {
    static func pixel(_ image: DecodedImage, _ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * image.width + x) * 4
        return Array(image.rgba[start..<start + 4])
    }

    @Test(arguments: [TestImage.Encoding.png, .bmp])
    func losslessFormatsDecodeToTheirPixels(_ encoding: TestImage.Encoding) throws {
        let image = TestImage.split(width: 6, height: 3)
        let decoded = try ImageDecoder.decode(TestImage.encode(image, as: encoding))
        #expect(decoded == image)
    }

    @Test func aJPEGDecodesToAboutItsColours() throws {
        let decoded = try ImageDecoder.decode(TestImage.encode(TestImage.split(width: 32, height: 16), as: .jpeg))
        #expect(decoded.width == 32 && decoded.height == 16)
        let left = Self.pixel(decoded, 2, 8), right = Self.pixel(decoded, 29, 8)
        #expect(left[0] > 200 && left[2] < 60, "left \(left)")
        #expect(right[2] > 200 && right[0] < 60, "right \(right)")
        #expect(left[3] == 255)
    }

    @Test func aGIFShowsItsFirstFrameOnly() throws {
        let decoded = try ImageDecoder.decode(TestImage.twoFrameGIF)
        #expect(decoded.width == 2 && decoded.height == 1)
        #expect(Self.pixel(decoded, 0, 0) == [255, 0, 0, 255])
        #expect(Self.pixel(decoded, 1, 0) == [0, 0, 255, 255])
    }

    @Test func theHeaderIsReadWithoutDecoding() throws {
        let header = try ImageDecoder.header(of: TestImage.pngHeader(width: 640, height: 480))
        #expect(header.format == .png && header.width == 640 && header.height == 480)
    }

    /// 10^10 pixels (40 GB of RGBA) said by a header alone: refused by its size,
    /// which only the header could tell; decoding would have failed otherwise.
    @Test(arguments: [
        ("PNG", TestImage.pngHeader(width: 100_000, height: 100_000)),
        ("BMP", TestImage.bmpHeader(width: 100_000, height: 100_000)),
        ("GIF", TestImage.gifHeader(width: 60_000, height: 60_000)),
    ])
    func aHugeHeaderIsRefusedBeforeAnyAllocation(_ format: String, _ bytes: [UInt8]) throws {
        let error = try #require(throws: Failure.self) { try ImageDecoder.decode(bytes) }
        #expect(error.kind == .invalidInput && error.message.contains("too large"))
        #expect(error.message.hasPrefix("this \(format) is "), "\(error)")
        #expect(error.message.contains("too large to preview"))
    }

    @Test func theLimitsNameWhatWasTooLarge() throws {
        let tall = try #require(throws: Failure.self) {
            try ImageDecoder.header(of: TestImage.pngHeader(width: 20, height: 16_385))
        }
        #expect(tall.description == "this PNG is 20×16385 pixels, too large to preview (previews stop at 16384 pixels on a side and 64 megapixels)")
        // 100 MP, each side under the limit; stb_image itself would take it.
        let wide = try #require(throws: Failure.self) {
            try ImageDecoder.header(of: TestImage.pngHeader(width: 10_000, height: 10_000))
        }
        #expect(wide.kind == .invalidInput && wide.message.contains("10000×10000"))
        let limits = ImageLimits(maxSide: 4, maxPixels: 16)
        #expect(throws: Failure.self) { try ImageDecoder.decode(TestImage.encode(TestImage.split(width: 5, height: 2), as: .png), limits: limits) }
        #expect(try ImageDecoder.decode(TestImage.encode(TestImage.split(width: 4, height: 4), as: .png), limits: limits).width == 4)
    }

    @Test func aLargeImageIsShrunkKeepingItsShapeAndColours() throws {
        let large = TestImage.split(width: 400, height: 100, left: (255, 0, 0, 128), right: TestImage.blue)
        let small = try ImageDecoder.shrink(large, toFit: 100)
        #expect(small.width == 100 && small.height == 25)
        #expect(Self.pixel(small, 0, 12) == [255, 0, 0, 128])
        #expect(Self.pixel(small, 99, 12) == [0, 0, 255, 255])
        #expect(try ImageDecoder.shrink(large, toFit: 400) == large)
    }

    @Test func aTruncatedFileIsACorruptImage() throws {
        let png = TestImage.encode(TestImage.split(width: 64, height: 64), as: .png)
        let error = try #require(throws: Failure.self) { try ImageDecoder.decode(Array(png.prefix(png.count / 2))) }
        #expect(error.kind == .invalidInput && error.message.contains("cannot be decoded"), "\(error)")
        #expect(error.message.hasPrefix("this PNG's data cannot be decoded: truncated or damaged (stb_image: "), "\(error)")
        // Cut inside the header: not even the size can be read.
        let header = try #require(throws: Failure.self) { try ImageDecoder.decode(Array(png.prefix(20))) }
        #expect(header.kind == .invalidInput && header.message.hasPrefix("this PNG's header cannot be decoded"), "\(header)")
    }

    @Test(arguments: [
        ("a bit depth PNG has not", TestImage.pngHeader(width: 8, height: 8, bitDepth: 7)),
        ("a colour type PNG has not", TestImage.pngHeader(width: 8, height: 8, colorType: 5)),
        ("no size", TestImage.pngHeader(width: 0, height: 8)),
        ("a JPEG that is only its marker", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]),
        ("a BMP header of another size", Array("BM".utf8) + [UInt8](repeating: 0xEE, count: 40)),
    ])
    func aCorruptHeaderIsAClearError(_ what: String, _ bytes: [UInt8]) throws {
        let error = try #require(throws: Failure.self) { try ImageDecoder.decode(bytes) }
        #expect(error.kind == .invalidInput, "\(what): \(error)")
        #expect(error.message.contains("cannot be decoded") || error.message.contains("says it is"), "\(what): \(error)")
    }

    static let supported = "stb_image decodes PNG, JPEG, GIF and BMP here"
    static let otherFormats: [(bytes: [UInt8], message: String)] = [
        (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), "WebP images have no preview: \(supported)"),
        ([0, 0, 0, 0x1C] + Array("ftypavif".utf8), "AVIF images have no preview: \(supported)"),
        ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], "TIFF images have no preview: \(supported)"),
        // PSD: stb_image reads it, but it is refused before stb_image sees it.
        (Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0], "not an image that can be previewed: \(supported)"),
        (Array("%PDF-1.7".utf8), "not an image that can be previewed: \(supported)"),
        ([], "not an image that can be previewed: \(supported)"),
    ]

    @Test(arguments: otherFormats)
    func otherFormatsAreNamedAndRefused(_ format: (bytes: [UInt8], message: String)) throws {
        let error = try #require(throws: Failure.self) { try ImageDecoder.decode(format.bytes) }
        #expect(error.kind == .invalidInput)
        #expect(error.message == format.message)
    }

    @Test func aFileIsReadWithinItsLimit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("split.png")
        let png = TestImage.encode(TestImage.split(width: 8, height: 8), as: .png)
        try Data(png).write(to: URL(fileURLWithPath: path))
        #expect(try ImageDecoder.decode(fileAt: path) == TestImage.split(width: 8, height: 8))

        let small = ImageLimits(maxFileBytes: png.count - 1)
        let large = try #require(throws: Failure.self) { try ImageDecoder.decode(fileAt: path, limits: small) }
        #expect(large.kind == .invalidInput && large.message == "the file is \(png.count) bytes, too large to preview")
    }

    @Test func missingFilesDirectoriesAndFIFOsAreUnreadableNotHangs() throws {
        let directory = try TemporaryDirectory()
        let missing = try #require(throws: Failure.self) { try ImageDecoder.decode(fileAt: directory.file("none.png")) }
        #expect(missing == Failure(.invalidInput, "cannot preview \(directory.file("none.png")): No such file or directory"))
        let folder = try #require(throws: Failure.self) { try ImageDecoder.decode(fileAt: directory.path) }
        #expect(folder.kind == .invalidInput && folder.message.hasSuffix("not a regular file"))
        let fifo = directory.file("fifo.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        let pipe = try #require(throws: Failure.self) { try ImageDecoder.decode(fileAt: fifo) }
        #expect(pipe.kind == .invalidInput && pipe.message.hasSuffix("not a regular file"))
    }

    @Test func decodingRunsOnManyThreadsAtOnce() async throws {
        let good = TestImage.encode(TestImage.split(width: 16, height: 8), as: .png)
        let bad = Array(good.prefix(good.count - 10))
        // stb_image's failure reason is per thread: each task sees its own outcome.
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<16 {
                group.addTask { (try? ImageDecoder.decode(i % 2 == 0 ? good : bad)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 8)
    }
}
