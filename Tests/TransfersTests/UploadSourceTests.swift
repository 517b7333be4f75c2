import Foundation
import Diagnostics
import Testing
@testable import Transfers
import TestSupport

/// Files to upload are checked and judged before anything goes out: bad input is a
/// one-line error naming the file (exit 2), a pipe is copied out a piece at a time.
@Suite struct UploadSourceTests {
    static func read(_ source: UploadSource) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(source.size))
        let count = bytes.withUnsafeMutableBytes { pread(source.fileDescriptor, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(0, count)))
    }

    @Test func aFileIsJudgedByItsBytesNotItsName() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("holiday.txt")
        try Data(ContentTypeTests.png + Array(repeating: 7, count: 5000)).write(to: URL(fileURLWithPath: path))
        let source = try UploadSource.file(at: path, sniffer: ContentSniffer(), spoolDirectory: directory.path)
        #expect(source.name == "holiday.txt")
        #expect(source.size == Int64(ContentTypeTests.png.count + 5000))
        #expect(source.contentType == "image/png")
        #expect(source.kind == .image)
        #expect(source.description == path)
        let named = try UploadSource.file(at: path, name: "cat.png", sniffer: ContentSniffer(), spoolDirectory: directory.path)
        #expect(named.name == "cat.png")
    }

    @Test func missingEmptyAndDirectoryPathsAreBadInputNamingThePath() throws {
        let directory = try TemporaryDirectory()
        let empty = directory.file("empty.jpg")
        try Data().write(to: URL(fileURLWithPath: empty))
        let sniffer = try ContentSniffer()
        let cases: [(String, String)] = [
            (directory.file("nope.jpg"), "cannot attach \(directory.file("nope.jpg")): no such file"),
            (empty, "cannot attach \(empty): the file is empty"),
            (directory.path, "cannot attach \(directory.path): it is a directory"),
            ("/dev/zero", "cannot attach /dev/zero: it is a device, not a file"),
        ]
        for (path, message) in cases {
            let error = try #require(throws: Failure.self) { try UploadSource.file(at: path, sniffer: sniffer, spoolDirectory: directory.path) }
            #expect(error.kind == .invalidInput)
            #expect(error.message == message)
        }
    }

    @Test func aPipeIsCopiedOutWholeAndJudgedFromItsStart() throws {
        let directory = try TemporaryDirectory()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let payload = ContentTypeTests.pdf + (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0) }
        let writeEnd = ends[1]
        let writer = Thread {
            payload.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let n = write(writeEnd, bytes.baseAddress! + offset, min(4096, bytes.count - offset))
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(ends[0]) }
        let source = try UploadSource.stream(ends[0], name: "report.pdf", sniffer: ContentSniffer(), spoolDirectory: directory.path)
        #expect(source.size == Int64(payload.count))
        #expect(source.contentType == "application/pdf")
        #expect(source.kind == .file)
        #expect(source.description == "standard input")
        #expect(Self.read(source) == payload)
        // The copy has no name: nothing is left in the directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test func anEmptyPipeIsBadInput() throws {
        let directory = try TemporaryDirectory()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[1])
        defer { close(ends[0]) }
        let error = try #require(throws: Failure.self) {
            try UploadSource.stream(ends[0], name: "x", sniffer: ContentSniffer(), spoolDirectory: directory.path)
        }
        #expect(error.kind == .invalidInput)
        #expect(error.message == "cannot attach standard input: it is empty")
    }

    @Test func aFIFOIsReadLikeAPipe() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.file("fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = ContentTypeTests.gif.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let source = try UploadSource.file(at: fifo, sniffer: ContentSniffer(), spoolDirectory: directory.path)
        #expect(source.name == "fifo")
        #expect(source.contentType == "image/gif")
        #expect(Self.read(source) == ContentTypeTests.gif)
    }
}
