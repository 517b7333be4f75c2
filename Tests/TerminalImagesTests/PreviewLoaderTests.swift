import Foundation
import Testing
import TerminalImages
import TestSupport

/// The terminal's thread asks for an image and never waits: it is decoded once in
/// the background, shrunk to what a preview needs, and the caller told.
@Suite struct PreviewLoaderTests {
    let directory: TemporaryDirectory
    let finished = ResultBox<String>()

    init() throws { directory = try TemporaryDirectory() }

    func loader(capacity: Int = 16) -> PreviewLoader {
        PreviewLoader(capacity: capacity) { [finished] path in finished.append(path) }
    }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The state once the `count`th `onFinished` has come.
    func settled(_ loader: PreviewLoader, _ path: String, count: Int = 1) throws -> PreviewLoader.State {
        guard finished.wait(count: count, timeout: 30).count >= count else { throw TestSupportError("\(path) never finished loading") }
        return loader.state(ofImageAt: path)
    }

    @Test func anImageIsLoadingThenReadyAndShrunk() throws {
        let path = try file("wide.png", TestImage.encode(TestImage.split(width: 2048, height: 256), as: .png))
        let loader = loader()
        #expect(loader.state(ofImageAt: path) == .loading)
        guard case .ready(let image) = try settled(loader, path) else { Issue.record("not ready"); return }
        #expect(image.width == PreviewLoader.keptSide && image.height == 128)
        // Still red on the left and blue on the right.
        #expect(Array(image.rgba[0..<4]) == [255, 0, 0, 255])
        #expect(Array(image.rgba[(image.width - 1) * 4..<image.width * 4]) == [0, 0, 255, 255])
        #expect(finished.all == [path])
    }

    @Test func aBadFileFailsWithItsReason() throws {
        let png = TestImage.encode(TestImage.split(width: 64, height: 64), as: .png)
        let path = try file("cut.png", Array(png.prefix(png.count / 2)))
        let loader = loader()
        _ = loader.state(ofImageAt: path)
        guard case .failed(let error) = try settled(loader, path) else { Issue.record("not failed"); return }
        #expect(error.kind == .invalidInput && error.message.contains("cannot be decoded"), "\(error)")
    }

    @Test func eachFileIsDecodedOnceAndTheLeastRecentlyUsedIsDropped() throws {
        let first = try file("first.bmp", TestImage.encode(TestImage.split(width: 8, height: 8), as: .bmp))
        let second = try file("second.bmp", TestImage.encode(TestImage.split(width: 4, height: 4), as: .bmp))
        let loader = loader(capacity: 1)
        _ = loader.state(ofImageAt: first)
        _ = try settled(loader, first)
        #expect(loader.state(ofImageAt: first) != .loading)
        _ = loader.state(ofImageAt: second)
        guard case .ready(let image) = try settled(loader, second, count: 2) else { Issue.record("not ready"); return }
        #expect(image.width == 4)
        // Asked again, the first is decoded again: it was dropped for the second.
        #expect(loader.state(ofImageAt: first) == .loading)
        _ = try settled(loader, first, count: 3)
        #expect(finished.all == [first, second, first])
    }

    @Test func aForgottenFileIsDecodedAgain() throws {
        let path = try file("changing.bmp", TestImage.encode(TestImage.split(width: 8, height: 8), as: .bmp))
        let loader = loader()
        _ = loader.state(ofImageAt: path)
        guard case .ready(let before) = try settled(loader, path) else { Issue.record("not ready"); return }
        _ = try file("changing.bmp", TestImage.encode(TestImage.split(width: 2, height: 2), as: .bmp))
        #expect(loader.state(ofImageAt: path) == .ready(before))
        loader.forget(path)
        #expect(loader.state(ofImageAt: path) == .loading)
        guard case .ready(let after) = try settled(loader, path, count: 2) else { Issue.record("not ready"); return }
        #expect(after.width == 2)
    }
}
