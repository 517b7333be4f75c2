import Foundation
import Diagnostics
import Testing
import ClientConfiguration
import HTTPTransport
import MessageCache
import QuickBloxAPI
import TestSupport
import Transfers
@testable import Messaging
import ChatIdentifiers

/// An outbox entry's files finished on the sandbox's real content API
/// (docs/protocol.md §8), from every state a killed sender can leave: nothing
/// done, a blob created, a file uploaded, a permission run out or refused; and
/// what must never be sent: a file too large, a file changed since it was queued.
@Suite("Messaging: an outbox entry's files through the content API", .serialized)
struct OutboxUploaderTests {
    let sandbox: SandboxProcess
    let service: MessagingService
    let token: String
    let home: TemporaryDirectory
    let dialogID: DialogID = "6b0db884c4ca891d2141e1c9"
    let owner = Int(getpid())

    init() throws {
        sandbox = try SandboxProcess(arguments: ["--max-upload", "64K"])
        let login = "up" + String(Int.random(in: 100_000...999_999))
        let me = try signUpUser(on: sandbox, login: login, password: "upload-pass-1")
        token = try sandbox.createSession(login: login, password: "upload-pass-1")
        let config = try ClientConfig.load(path: sandbox.configPath)
        let api = QuickBloxClient(apiEndpoint: config.apiEndpoint, credentials: config.credentials,
                                  transport: try CurlHTTPClient(options: HTTPClientOptions(caFile: config.caFile)))
        api.token = token
        home = try TemporaryDirectory()
        service = MessagingService(api: api, cache: try ChatCache(path: home.file("cache.sqlite")), me: me)
    }

    /// A file written, opened and kept as `send --attach` keeps it; its entry queued.
    func queue(_ files: [(name: String, bytes: [UInt8])]) throws -> OutboxEntry {
        let outbox = home.file("outbox-files")
        try FileManager.default.createDirectory(atPath: outbox, withIntermediateDirectories: true)
        var uploads: [OutboxUpload] = []
        for (position, file) in files.enumerated() {
            let path = home.file(file.name)
            try Data(file.bytes).write(to: URL(fileURLWithPath: path))
            let source = try UploadSource.file(at: path, sniffer: ContentSniffer(), spoolDirectory: outbox)
            uploads.append(OutboxUpload(position: position, source: source, kept: try source.keep(in: outbox)))
        }
        return try service.enqueue("", uploads: uploads, to: dialogID, owner: owner)
    }

    static func bytes(_ count: Int, seed: UInt8 = 1) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) &+ seed } }

    /// The bytes the sandbox serves for a blob; nil while it is not completed.
    func served(_ uid: String) throws -> [UInt8]? {
        guard try sandbox.send(method: "GET", path: "/blobs/\(uid).json", token: token).status == 301 else { return nil }
        let path = home.file("served-" + uid)
        try BlobDownloader(api: service.api).download(uid: uid, to: path, overwrite: true)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func stored(_ entry: OutboxEntry) throws -> OutboxEntry {
        try #require(try service.cache.outboxEntry(clientMessageID: entry.clientMessageID))
    }

    @Test func aQueuedEntryIsMadeReadyEveryStepKeptOnTheWay() throws {
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0] + Self.bytes(19_987)
        let entry = try queue([("one.gif", gif), ("two.txt", Array("plain text\n".utf8))])
        #expect(entry.text == "[attachment]" && entry.uploads.map(\.state) == [.queued, .queued])
        var heard: [Int: Int64] = [:]
        let ready = try OutboxUploader(service: service, owner: owner).finish(entry) { upload, progress in
            heard[upload.position] = progress.bytes
        }
        #expect(ready.isReadyToSend && heard == [0: 20_000, 1: 11])
        #expect(try stored(entry).uploads == ready.uploads, "every step is in the cache")
        let attachments = ready.attachments
        #expect(attachments.map(\.name) == ["one.gif", "two.txt"])
        #expect(attachments.map(\.type) == ["image", "file"] && attachments.map(\.contentType) == ["image/gif", "text/plain"])
        #expect(attachments.map(\.size) == [20_000, 11])
        #expect(try stored(entry).attachmentsJSON == ready.attachmentsJSON)
        #expect(try served(try #require(attachments[0].id)) == gif)
        #expect(try served(try #require(attachments[1].id)) == Array("plain text\n".utf8))
    }

    @Test func aBlobAnEarlierRunCreatedIsUploadedToAgainAndAnUploadedFileOnlyCompleted() throws {
        var entry = try queue([("cut.bin", Self.bytes(30_000)), ("done.bin", Self.bytes(500, seed: 9))])
        // What a sender killed mid-upload leaves: the first file's blob made, the second's file up.
        let first = try service.api.createBlob(name: "cut.bin", contentType: "application/octet-stream")
        entry.uploads[0].created(blobID: first.id, uid: first.uid, uploadURL: first.raw["blob_object_access"]?["params"]?.stringValue ?? "",
                                 expiresAt: Int(Date().timeIntervalSince1970) + 3000)
        let second = BlobUploader(api: service.api)
        let secondSource = try UploadSource.file(at: home.file("done.bin"), sniffer: ContentSniffer(), spoolDirectory: home.path)
        let secondBlob = try second.create(for: secondSource)
        try second.uploadFile(secondSource, to: secondBlob)
        entry.uploads[1].created(blobID: secondBlob.id, uid: secondBlob.uid,
                                 uploadURL: secondBlob.raw["blob_object_access"]?["params"]?.stringValue ?? "", expiresAt: nil)
        entry.uploads[1].uploaded()
        for upload in entry.uploads { try service.cache.recordUpload(upload, of: entry.clientMessageID) }

        let ready = try OutboxUploader(service: service, owner: owner).finish(try stored(entry))
        #expect(ready.attachments.map(\.id) == [first.uid, secondBlob.uid], "the blobs made before are the ones sent")
        #expect(try served(first.uid) == Self.bytes(30_000))
        #expect(try served(secondBlob.uid) == Self.bytes(500, seed: 9))
    }

    @Test func aBlobWhosePermissionRanOutOrIsRefusedIsReplacedByANewOne() throws {
        var entry = try queue([("late.bin", Self.bytes(1000)), ("forged.bin", Self.bytes(2000, seed: 3))])
        let late = try service.api.createBlob(name: "late.bin", contentType: "application/octet-stream")
        entry.uploads[0].created(blobID: late.id, uid: late.uid, uploadURL: late.raw["blob_object_access"]?["params"]?.stringValue ?? "",
                                 expiresAt: Int(Date().timeIntervalSince1970) + 30)
        let forged = try service.api.createBlob(name: "forged.bin", contentType: "application/octet-stream")
        let params = try #require(forged.raw["blob_object_access"]?["params"]?.stringValue)
        // The storage finds the signature wrong (as after its secret changed): 403.
        let broken = params.replacing(/x-amz-signature=[0-9a-f]+/, with: "x-amz-signature=" + String(repeating: "0", count: 64))
        entry.uploads[1].created(blobID: forged.id, uid: forged.uid, uploadURL: broken, expiresAt: Int(Date().timeIntervalSince1970) + 3000)
        for upload in entry.uploads { try service.cache.recordUpload(upload, of: entry.clientMessageID) }

        let ready = try OutboxUploader(service: service, owner: owner).finish(try stored(entry))
        let ids = ready.attachments.compactMap(\.id)
        #expect(ids.count == 2 && !ids.contains(late.uid) && !ids.contains(forged.uid))
        #expect(try served(ids[0]) == Self.bytes(1000))
        #expect(try served(ids[1]) == Self.bytes(2000, seed: 3))
    }

    @Test func aFileLargerThanTheServerTakesIsBadInputBeforeAnyByteGoes() throws {
        let entry = try queue([("small.bin", Self.bytes(100)), ("huge.bin", Self.bytes(70_000))])
        let error = try #require(throws: Failure.self) { try OutboxUploader(service: service, owner: owner).finish(entry) }
        #expect(error.kind == .invalidInput)
        #expect(error.message == "upload \(home.file("huge.bin")): the server takes no file this large (70000 bytes; its limit is 65536 bytes)")
        // Blobs made for both, neither file uploaded: the first file was not sent ahead of the check.
        #expect(try stored(entry).uploads.map(\.state) == [.created, .created])
        let small = try #require(try stored(entry).uploads.first?.blobUID)
        #expect(try served(small) == nil, "not uploaded, not completed")
    }

    @Test func aFileChangedSinceItWasQueuedIsNeverSent() throws {
        let entry = try queue([("draft.txt", Array("first draft\n".utf8))])
        try Data("second draft, longer\n".utf8).write(to: URL(fileURLWithPath: home.file("draft.txt")))
        let error = try #require(throws: Failure.self) { try OutboxUploader(service: service, owner: owner).finish(entry) }
        #expect(error.kind == .failure)
        #expect(error.message == "cannot send \(home.file("draft.txt")): it changed after the message was queued")
        #expect(try stored(entry).uploads.map(\.state) == [.queued], "nothing asked of the server")
    }
}
