import Foundation
import Testing
import TerminalImages
import TestSupport

/// The terminal's thread asks for an image and never waits: it is decoded in the
/// background, shrunk to what a preview needs, kept, and handed over there.
@Suite struct PreviewLoaderTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What `load` hands over for `path`.
    func loaded(_ loader: PreviewLoader, _ path: String) throws -> PreviewLoader.Outcome {
        let outcome = ResultBox<PreviewLoader.Outcome>()
        loader.load(path) { outcome.append($0) }
        guard let first = outcome.wait(count: 1, timeout: 30).first else { throw TestSupportError("\(path) never loaded") }
        return first
    }

    func bmp(_ side: Int) -> [UInt8] { TestImage.encode(TestImage.split(width: side, height: side), as: .bmp) }

    @Test func anImageIsDecodedAndShrunk() throws {
        let path = try file("wide.png", TestImage.encode(TestImage.split(width: 2048, height: 256), as: .png))
        let image = try loaded(PreviewLoader(), path).get()
        #expect(image.width == PreviewLoader.keptSide && image.height == 128)
        // Still red on the left and blue on the right.
        #expect(Array(image.rgba[0..<4]) == [255, 0, 0, 255])
        #expect(Array(image.rgba[(image.width - 1) * 4..<image.width * 4]) == [0, 0, 255, 255])
    }

    @Test func aBadFileFailsWithItsReason() throws {
        let png = TestImage.encode(TestImage.split(width: 64, height: 64), as: .png)
        let path = try file("cut.png", Array(png.prefix(png.count / 2)))
        guard case .failure(let error) = try loaded(PreviewLoader(), path) else { Issue.record("not failed"); return }
        #expect(error.kind == .invalidInput && error.message.contains("cannot be decoded"), "\(error)")
    }

    @Test func eachFileIsDecodedOnceAndTheLeastRecentlyUsedIsDropped() throws {
        let first = try file("first.bmp", bmp(8))
        let second = try file("second.bmp", bmp(4))
        let loader = PreviewLoader(capacity: 1)
        #expect(try loaded(loader, first).get().width == 8)
        // Changed on disk, the file is not read again while it is kept.
        _ = try file("first.bmp", bmp(2))
        #expect(try loaded(loader, first).get().width == 8)
        #expect(try loaded(loader, second).get().width == 4)
        // Dropped for the second, the first is decoded again.
        #expect(try loaded(loader, first).get().width == 2)
    }

    @Test func aForgottenFileIsDecodedAgain() throws {
        let path = try file("changing.bmp", bmp(8))
        let loader = PreviewLoader()
        #expect(try loaded(loader, path).get().width == 8)
        _ = try file("changing.bmp", bmp(2))
        #expect(try loaded(loader, path).get().width == 8)
        loader.forget(path)
        #expect(try loaded(loader, path).get().width == 2)
    }
}
