import Foundation
import Diagnostics
import Testing
import HTTPTransport
import QuickBloxAPI
@testable import Transfers
import TestSupport

/// The uploader (create → upload → complete) and the downloader (redirect, then
/// the storage; `.part`, resume, atomic rename) against a fake content API.
@Suite struct BlobTransferTests {
    static func content(_ count: Int) -> [UInt8] { ContentTypeTests.jpeg + (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13) } }

    static func source(_ bytes: [UInt8], named name: String, in directory: TemporaryDirectory) throws -> UploadSource {
        let path = directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try UploadSource.file(at: path, sniffer: ContentSniffer(), spoolDirectory: directory.path)
    }

    static func contents(_ path: String) -> [UInt8]? { (try? Data(contentsOf: URL(fileURLWithPath: path))).map(Array.init) }

    @Test func anUploadCreatesSendsAndCompletesAndMakesTheAttachment() throws {
        let server = try FakeContentAPI()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let bytes = Self.content(100_000)
        let source = try Self.source(bytes, named: "cat.jpg", in: directory)
        var seen: [TransferProgress] = []
        let blob = try BlobUploader(api: server.client()).upload(source) { seen.append($0) }

        #expect(blob.uid == FakeContentAPI.uid)
        #expect(blob.size == Int64(bytes.count))
        #expect(server.state.withLock { $0.files[FakeContentAPI.uid] } == bytes)
        #expect(server.state.withLock { $0.completed[315] } == bytes.count)
        #expect(server.state.withLock { $0.names[FakeContentAPI.uid] } == "cat.jpg")
        #expect(seen.last == TransferProgress(bytes: Int64(bytes.count), total: Int64(bytes.count)))
        let attachment = BlobUploader.attachment(for: blob, source: source)
        #expect(attachment == QBAttachment(type: "image", id: FakeContentAPI.uid, name: "cat.jpg", size: bytes.count, contentType: "image/jpeg"))
    }

    @Test func aFileTooLargeForTheStorageIsBadInputSayingSo() throws {
        let server = try FakeContentAPI(refuseUploads: "<Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message></Error>")
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let source = try Self.source(Self.content(1000), named: "big.iso", in: directory)
        let error = try #require(throws: Failure.self) { try BlobUploader(api: server.client()).upload(source) }
        #expect(error.kind == .invalidInput)
        #expect(error.message == "upload \(source.description): the server takes no file this large (\(source.size) bytes): EntityTooLarge: Your proposed upload exceeds the maximum allowed size")
        #expect(server.state.withLock { $0.completed.isEmpty })
    }

    @Test func aFileLargerThanThePolicyAdmitsIsRefusedBeforeAnyByteGoes() throws {
        let server = try FakeContentAPI(maximumSize: 999)
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let source = try Self.source(Self.content(1000), named: "big.jpg", in: directory)
        let uploader = BlobUploader(api: try server.client())
        let blob = try uploader.create(for: source)
        #expect(blob.upload?.maximumSize == 999)
        let error = try #require(throws: Failure.self) { try uploader.uploadFile(source, to: blob) }
        #expect(error.kind == .invalidInput)
        #expect(error.message == "upload \(source.description): the server takes no file this large (\(source.size) bytes; its limit is 999 bytes)")
        #expect(server.storage.requests.isEmpty)
        #expect(server.state.withLock { $0.completed.isEmpty })
    }

    @Test func theStepsCanBeTakenOneByOneAndCompletingAgainIsHarmless() throws {
        let server = try FakeContentAPI(maximumSize: 1_000_000)
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let bytes = Self.content(5000)
        let source = try Self.source(bytes, named: "one.jpg", in: directory)
        let uploader = BlobUploader(api: try server.client())
        let blob = try uploader.create(for: source)
        try uploader.uploadFile(source, to: blob)
        #expect(server.state.withLock { $0.files[FakeContentAPI.uid] } == bytes)
        #expect(server.state.withLock { $0.completed.isEmpty }, "uploaded, not completed")
        let completed = try uploader.complete(blob, for: source)
        _ = try uploader.complete(blob, for: source)
        #expect(completed.size == Int64(bytes.count) && completed.status == "complete")
        #expect(server.state.withLock { $0.completed[315] } == bytes.count)
    }

    @Test func aDownloadLandsWholeUnderItsNameWithNoPartLeft() throws {
        let bytes = Self.content(300_000)
        let server = try FakeContentAPI(serving: bytes)
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let path = directory.file("cat.jpg")
        var seen: [TransferProgress] = []
        let size = try BlobDownloader(api: server.client()).download(uid: FakeContentAPI.uid, to: path, overwrite: false) { seen.append($0) }
        #expect(size == Int64(bytes.count))
        #expect(Self.contents(path) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))
        #expect(seen.last?.bytes == Int64(bytes.count))
        // The redirect is followed without the token.
        #expect(server.api.requests.last?.header("QB-Token") == "tok-user")
        #expect(server.storage.requests.allSatisfy { $0.header("QB-Token") == nil })
    }

    @Test func aPartLeftBehindIsResumedWithARange() throws {
        let bytes = Self.content(300_000)
        let server = try FakeContentAPI(serving: bytes)
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let path = directory.file("cat.jpg")
        try Data(bytes.prefix(120_000)).write(to: URL(fileURLWithPath: path + ".part"))
        try BlobDownloader(api: server.client()).download(uid: FakeContentAPI.uid, to: path, overwrite: false)
        #expect(Self.contents(path) == bytes)
        // The last 64 KiB before the resume point come again, to be compared.
        #expect(server.storage.requests.first?.header("Range") == "bytes=54464-")
    }

    @Test func aPartAnotherFileLeftUnderTheSameNameIsNotContinued() throws {
        let bytes = Self.content(300_000)
        let server = try FakeContentAPI(serving: bytes)
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let path = directory.file("photo.jpg")
        try Data(Self.content(200_000).map { $0 &+ 1 }.prefix(120_000)).write(to: URL(fileURLWithPath: path + ".part"))
        try BlobDownloader(api: server.client()).download(uid: FakeContentAPI.uid, to: path, overwrite: false)
        #expect(Self.contents(path) == bytes)
        #expect(server.storage.requests.map { $0.header("Range") } == ["bytes=54464-", nil])
    }

    @Test func aDroppedConnectionIsResumedAtOnce() throws {
        let bytes = Self.content(300_000)
        let server = try FakeContentAPI(serving: bytes, cutFirstDownloadAfter: 100_000)
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let path = directory.file("cat.jpg")
        try BlobDownloader(api: server.client()).download(uid: FakeContentAPI.uid, to: path, overwrite: false)
        #expect(Self.contents(path) == bytes)
        #expect(server.storage.requests.map { $0.header("Range") } == [nil, "bytes=34464-"])
        #expect(server.api.requests.count == 2)
    }

    @Test func aDroppedConnectionWithNoMoreTriesKeepsThePartAndSaysSo() throws {
        let server = try FakeContentAPI(serving: Self.content(300_000), cutFirstDownloadAfter: 100_000)
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let path = directory.file("cat.jpg")
        let downloader = BlobDownloader(api: try server.client())
        downloader.attempts = 1
        let error = try #require(throws: Failure.self) { try downloader.download(uid: FakeContentAPI.uid, to: path, overwrite: false) }
        #expect(error.kind == .temporary)
        #expect(error.hint == "100000 bytes are kept in \(path).part; the same command resumes from there")
        #expect(Self.contents(path + ".part")?.count == 100_000)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func anExistingFileIsKeptUnlessOverwriting() throws {
        let bytes = Self.content(1000)
        let server = try FakeContentAPI(serving: bytes)
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let path = directory.file("cat.jpg")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
        let downloader = BlobDownloader(api: try server.client())
        let error = try #require(throws: Failure.self) { try downloader.download(uid: FakeContentAPI.uid, to: path, overwrite: false) }
        #expect(error.kind == .invalidInput)
        #expect(error.description == "\(path) exists (give --force to replace it)")
        #expect(Self.contents(path) == Array("mine".utf8))
        #expect(server.api.requests.isEmpty)
        try downloader.download(uid: FakeContentAPI.uid, to: path, overwrite: true)
        #expect(Self.contents(path) == bytes)
    }

    @Test func anUnknownUidIsBadInputAndLeavesNothing() throws {
        let server = try FakeContentAPI()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let path = directory.file("x")
        let error = try #require(throws: Failure.self) {
            try BlobDownloader(api: server.client()).download(uid: "0000000000000000000000000000000000", to: path, overwrite: false)
        }
        #expect(error.kind == .invalidInput)
        #expect(error.message == "download 0000000000000000000000000000000000: there is no file with uid 0000000000000000000000000000000000 (The resource wasn't found)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test func aBlobThatIsNotOursIsAFailureSayingWhoMayReadIt() throws {
        let server = try FakeContentAPI()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let error = try #require(throws: Failure.self) {
            try BlobDownloader(api: server.client()).download(uid: "forbidden", to: directory.file("x"), overwrite: false)
        }
        #expect(error.kind == .failure)
        #expect(error.description == "download forbidden: not allowed to read it (You don't have appropriate permissions to perform this operation) (only its owner and the occupants of a dialog it was sent to may)")
    }

    @Test func aFullDiskIsAFailureNamingTheFile() throws {
        let server = try FakeContentAPI(serving: Self.content(1000))
        defer { server.stop() }
        let full = open("/dev/full", O_WRONLY)
        defer { close(full) }
        let error = try #require(throws: Failure.self) {
            try BlobDownloader(api: server.client()).download(uid: FakeContentAPI.uid, into: full, description: "standard output")
        }
        #expect(error.kind == .failure)
        #expect(error.message == "download \(FakeContentAPI.uid): cannot write standard output: No space left on device")
    }
}
