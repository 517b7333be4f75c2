import Testing
import Foundation
import MessageCache
import TestSupport
import ChatIdentifiers

/// An outbox entry's files (`send --attach`): the steps of one upload as values,
/// and the cache keeping each step, handing the files back with the entry, and
/// removing the outbox's own copies (never the user's file) with the entry.
@Suite("MessageCache: outbox uploads")
struct OutboxUploadTests {
    let fixture: CacheFixture
    let d = dialogID(1)

    init() throws { fixture = try CacheFixture() }

    static func upload(_ position: Int, file: String = "/state/outbox-files/upload-x", keeping: OutboxUpload.Keeping = .link) -> OutboxUpload {
        OutboxUpload(position: position, source: "cat\(position).jpg", file: file, keeping: keeping, name: "cat\(position).jpg",
                     type: "image", contentType: "image/jpeg", size: 1000 + Int64(position), modifiedAt: 1_796_000_000_123_456_789,
                     inode: UInt64.max - 1, device: 2049)
    }

    // MARK: the steps, as values

    @Test func aFileGoesCreateUploadCompleteThenIsDone() {
        var upload = Self.upload(0)
        #expect(upload.state == .queued && upload.nextStep(now: 1000) == .create)
        upload.created(blobID: 7, uid: "u7", uploadURL: "http://s/blobs/7/upload/?key=u7", expiresAt: 4600)
        #expect(upload.state == .created && upload.blobUID == "u7" && upload.nextStep(now: 1000) == .upload)
        upload.uploaded()
        #expect(upload.nextStep(now: 1000) == .complete)
        upload.completed()
        #expect(upload.nextStep(now: 99_999) == .done)
    }

    @Test(arguments: [
        (4600, 1000, OutboxUpload.Step.upload),  // an hour of permission left
        (4600, 4539, .upload),                   // 61 s left: still enough to begin
        (4600, 4540, .create),                   // a minute or less: a new blob
        (4600, 9000, .create),                   // expired
    ])
    func aCreatedBlobIsUploadedToWhileItsPermissionLasts(_ expires: Int, _ now: Int, _ step: OutboxUpload.Step) {
        var upload = Self.upload(0)
        upload.created(blobID: 7, uid: "u7", uploadURL: "http://s/", expiresAt: expires)
        #expect(upload.nextStep(now: now) == step)
    }

    @Test func aPermissionOfUnknownEndIsNotTrusted() {
        var upload = Self.upload(0)
        upload.created(blobID: 7, uid: "u7", uploadURL: "http://s/", expiresAt: nil)
        #expect(upload.nextStep(now: 0) == .create)
    }

    @Test func aRefusedUploadGetsANewBlobAndARefusedCompletionUploadsAgain() {
        var upload = Self.upload(0)
        upload.created(blobID: 7, uid: "u7", uploadURL: "http://s/", expiresAt: 4600)
        upload.needsNewBlob()
        #expect(upload.state == .queued && upload.blobID == nil && upload.blobUID == nil && upload.uploadURL == nil)
        upload.created(blobID: 8, uid: "u8", uploadURL: "http://s/8", expiresAt: 4600)
        upload.uploaded()
        upload.needsUploadAgain()
        #expect(upload.state == .created && upload.blobUID == "u8" && upload.nextStep(now: 1000) == .upload)
        upload.uploaded()
        upload.completed()
        // A completed file stays completed: its blob is what the message will name.
        upload.needsNewBlob()
        upload.needsUploadAgain()
        #expect(upload.state == .completed && upload.blobUID == "u8")
    }

    // MARK: kept in the cache

    @Test func theEntryAndItsFilesAreWrittenTogetherAndEveryStepIsKept() throws {
        let cache = try fixture.open()
        let id = hexID(1, prefix: "c")
        try cache.enqueue(dialogID: d, text: "[attachment]", clientMessageID: id, createdAt: 10, owner: 100,
                          uploads: [Self.upload(0), Self.upload(1, keeping: .original)])
        var entry = try #require(try cache.outboxEntry(clientMessageID: id))
        #expect(entry.uploads == [Self.upload(0), Self.upload(1, keeping: .original)])
        #expect(!entry.isReadyToSend && entry.uploadsCompleted == (0, 2))
        #expect(entry.claimedBy == 100 && entry.attachmentsJSON == "")

        entry.uploads[0].created(blobID: 7, uid: "u7", uploadURL: "http://s/blobs/7/upload/?key=u7&policy=cA%3D%3D", expiresAt: 4600)
        try cache.recordUpload(entry.uploads[0], of: id)
        entry.uploads[0].uploaded()
        entry.uploads[0].completed()
        try cache.recordUpload(entry.uploads[0], of: id)
        // Another process (a flush) reads it back as it was left: in a fresh connection.
        let reopened = try fixture.open()
        let left = try #require(try reopened.pending().first)
        #expect(left.uploads == entry.uploads)
        #expect(left.uploadsCompleted == (1, 2))

        entry.uploads[1].created(blobID: 9, uid: "u9", uploadURL: "http://s/9", expiresAt: nil)
        entry.uploads[1].uploaded()
        entry.uploads[1].completed()
        #expect(try reopened.recordUpload(entry.uploads[1], of: id, attachmentsJSON: #"[{"id":"u7"},{"id":"u9"}]"#))
        let claimed = try reopened.claim(limit: 10, owner: 100, now: 20, isAlive: { _ in true })
        #expect(claimed.map(\.uploads) == [entry.uploads])
        #expect(claimed.first?.isReadyToSend == true)
        #expect(claimed.first?.attachmentsJSON == #"[{"id":"u7"},{"id":"u9"}]"#)
        #expect(try !reopened.recordUpload(entry.uploads[1], of: hexID(99, prefix: "c")), "no such entry")
    }

    @Test func enqueueingTheSameEntryAgainKeepsItsFilesAsTheyWere() throws {
        let cache = try fixture.open()
        let id = hexID(1, prefix: "c")
        try cache.enqueue(dialogID: d, text: "x", clientMessageID: id, createdAt: 10, uploads: [Self.upload(0)])
        var moved = Self.upload(0)
        moved.created(blobID: 1, uid: "u1", uploadURL: "http://s/", expiresAt: 50)
        try cache.recordUpload(moved, of: id)
        try cache.enqueue(dialogID: d, text: "x", clientMessageID: id, createdAt: 10, uploads: [Self.upload(0), Self.upload(1)])
        #expect(try cache.outboxEntry(clientMessageID: id)?.uploads == [moved])
    }

    @Test func deliveringOrDiscardingRemovesTheOutboxsCopiesButNeverTheUsersFile() throws {
        let cache = try fixture.open()
        let files = try TemporaryDirectory()
        let copy = files.file("upload-copy"), spool = files.file("upload-spool"), mine = files.file("mine.jpg")
        for path in [copy, spool, mine] { try Data("bytes".utf8).write(to: URL(fileURLWithPath: path)) }
        let sent = hexID(1, prefix: "c"), dropped = hexID(2, prefix: "c")
        try cache.enqueue(dialogID: d, text: "a", clientMessageID: sent, createdAt: 10,
                          uploads: [Self.upload(0, file: copy, keeping: .link), Self.upload(1, file: mine, keeping: .original)])
        try cache.enqueue(dialogID: d, text: "b", clientMessageID: dropped, createdAt: 11, uploads: [Self.upload(0, file: spool, keeping: .spool)])
        try cache.enqueue(dialogID: d, text: "plain", clientMessageID: hexID(3, prefix: "c"), createdAt: 12)

        #expect(try cache.markDelivered(clientMessageID: sent, serverMessage: message(1, dialog: d, date: 30, text: "a")))
        #expect(!FileManager.default.fileExists(atPath: copy))
        #expect(FileManager.default.fileExists(atPath: mine), "the user's own file is never removed")
        #expect(FileManager.default.fileExists(atPath: spool))

        #expect(try cache.discard(clientMessageID: dropped))
        #expect(!FileManager.default.fileExists(atPath: spool))
        #expect(try !cache.discard(clientMessageID: dropped))
        #expect(try cache.pending().map(\.text) == ["plain"])
        #expect(try cache.pending().first?.uploads == [])
    }

    @Test func aClaimHeldThroughALongUploadIsNotTakenForStale() throws {
        let cache = try fixture.open()
        let id = hexID(1, prefix: "c")
        try cache.enqueue(dialogID: d, text: "big", clientMessageID: id, createdAt: 1000, owner: 100, uploads: [Self.upload(0)])
        try cache.renewClaim(clientMessageID: id, owner: 100, now: 1290)
        // 300 s after the claim was made, but 10 s after it was renewed.
        #expect(try cache.claim(limit: 10, owner: 200, now: 1300, isAlive: { _ in true }).isEmpty)
        try cache.renewClaim(clientMessageID: id, owner: 999, now: 5000)  // not its holder: no effect
        #expect(try cache.claim(limit: 10, owner: 200, now: 1590, isAlive: { _ in true }).map(\.clientMessageID) == [id])
    }
}
