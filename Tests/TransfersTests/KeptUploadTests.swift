import Foundation
import Diagnostics
import Testing
@testable import Transfers
import TestSupport

/// Files held for an upload a later process finishes (the outbox): a pipe's copy
/// stays, mode 0600; a file is kept as a clone or a hard link, which outlives the
/// file's removal; and a file that is no longer what it was is refused by name,
/// never sent as other bytes than the ones queued.
@Suite struct KeptUploadTests {
    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func contents(_ path: String) -> [UInt8]? { (try? Data(contentsOf: URL(fileURLWithPath: path))).map(Array.init) }

    static func reopen(_ kept: KeptUpload, description: String = "cat.gif") throws -> UploadSource {
        try UploadSource.kept(kept, description: description, name: "cat.gif", contentType: "image/gif")
    }

    @Test func aFileIsKeptInTheOutboxAndOutlivesItsRemoval() throws {
        let home = try TemporaryDirectory(), outbox = try TemporaryDirectory()
        let path = home.file("cat.gif")
        let bytes = ContentTypeTests.gif + Array(repeating: 1, count: 4000)
        try Self.write(bytes, to: path)
        let source = try UploadSource.file(at: path, sniffer: ContentSniffer(), spoolDirectory: outbox.path)
        let kept = try source.keep(in: outbox.path)
        // This machine's file systems decide which (ext4: a link; btrfs, XFS: a clone).
        #expect(kept.method == .link || kept.method == .clone)
        #expect(kept.path.hasPrefix(outbox.path + "/upload-"))
        #expect(kept.size == Int64(bytes.count) && kept.isOwnCopy)

        try FileManager.default.removeItem(atPath: path)
        let again = try Self.reopen(kept)
        #expect(UploadSourceTests.read(again) == bytes)
        #expect(again.description == "cat.gif" && again.contentType == "image/gif" && again.kind == .image)
    }

    @Test func anEditAfterQueueingIsRefusedUnlessTheOutboxHasAClone() throws {
        let home = try TemporaryDirectory(), outbox = try TemporaryDirectory()
        let path = home.file("notes.txt")
        try Self.write(Array("the first words\n".utf8), to: path)
        let source = try UploadSource.file(at: path, sniffer: ContentSniffer(), spoolDirectory: outbox.path)
        let kept = try source.keep(in: outbox.path)
        // Edited in place, as `>>` does.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("more\n".utf8))
        try handle.close()
        if kept.method == .clone {
            #expect(UploadSourceTests.read(try Self.reopen(kept)) == Array("the first words\n".utf8))
        } else {
            let error = try #require(throws: Failure.self) { try Self.reopen(kept, description: path) }
            #expect(error.kind == .failure)
            #expect(error.description == "cannot send \(path): it changed after the message was queued (send it again)")
        }
    }

    @Test func aFileKeptByItsPathIsRefusedOnceRemovedOrReplaced() throws {
        let home = try TemporaryDirectory()
        let path = home.file("cat.gif")
        try Self.write(ContentTypeTests.gif, to: path)
        var info = stat()
        try #require(stat(path, &info) == 0)
        let kept = KeptUpload(method: .original, path: path, size: Int64(info.st_size), modifiedAt: KeptUpload.nanoseconds(info.st_mtim),
                              inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
        #expect(!kept.isOwnCopy)
        #expect(UploadSourceTests.read(try Self.reopen(kept)) == ContentTypeTests.gif)

        // Replaced by another file of the same size (an editor's save): another inode.
        try Self.write(ContentTypeTests.gif, to: home.file("new.gif"))
        try #require(rename(home.file("new.gif"), path) == 0)
        let replaced = try #require(throws: Failure.self) { try Self.reopen(kept) }
        #expect(replaced.message == "cannot send cat.gif: it changed after the message was queued")

        try FileManager.default.removeItem(atPath: path)
        let removed = try #require(throws: Failure.self) { try Self.reopen(kept) }
        #expect(removed.description == "cannot send cat.gif: it was removed after the message was queued (send it again)")
    }

    @Test func aPipeKeptIsACopyOfItsOwnMode0600AndAnEmptyOneLeavesNothing() throws {
        let outbox = try TemporaryDirectory()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let payload = ContentTypeTests.pdf + Array(repeating: 9, count: 300_000)
        let writeEnd = ends[1]
        let writer = Thread {
            payload.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let n = Glibc.write(writeEnd, bytes.baseAddress! + offset, bytes.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(ends[0]) }
        let source = try UploadSource.stream(ends[0], name: "report.pdf", sniffer: ContentSniffer(), spoolDirectory: outbox.path,
                                             keepingSpool: true)
        let spool = try #require(source.spoolPath)
        let kept = try source.keep(in: outbox.path)
        #expect(kept.method == .spool && kept.path == spool && kept.isOwnCopy)
        #expect(Self.contents(spool) == payload)
        var info = stat()
        try #require(stat(spool, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)

        var empty: [Int32] = [0, 0]
        try #require(pipe(&empty) == 0)
        close(empty[1])
        defer { close(empty[0]) }
        #expect(throws: Failure.self) {
            try UploadSource.stream(empty[0], name: "x", sniffer: ContentSniffer(), spoolDirectory: outbox.path, keepingSpool: true)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.path) == [URL(fileURLWithPath: spool).lastPathComponent])
    }

    @Test func aFileChangedWhileItWasSentIsNoticedAfterwards() throws {
        let home = try TemporaryDirectory(), outbox = try TemporaryDirectory()
        let path = home.file("log.txt")
        try Self.write(Array("line\n".utf8), to: path)
        let source = try UploadSource.file(at: path, sniffer: ContentSniffer(), spoolDirectory: outbox.path)
        let kept = try source.keep(in: outbox.path)
        try source.verifyUnchanged(kept)
        guard kept.method != .clone else { return }
        try Self.write(Array("other\n".utf8), to: path)
        #expect(throws: Failure.self) { try source.verifyUnchanged(kept) }
    }
}
