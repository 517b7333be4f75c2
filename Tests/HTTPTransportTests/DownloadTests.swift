import Foundation
import Testing
import HTTPTransport
import TestSupport

/// Downloads stream into a descriptor, resume with `Range` from what it holds,
/// and report a failing disk by the file's name (docs/protocol.md §8).
@Suite struct DownloadTests {
    static let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }

    /// Serves `content` with ranges, as a storage service does; `honourRanges: false`
    /// answers every request whole.
    static func storage(honourRanges: Bool = true, cutAfter: Int? = nil) throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { request, connection in
            let bytes = content
            if honourRanges, let range = request.header("Range"), range.hasPrefix("bytes="),
               let start = Int(range.dropFirst(6).split(separator: "-").first ?? "") {
                guard start < bytes.count else {
                    connection.send(ScriptedHTTPServer.response(416, "Range Not Satisfiable", headers: [("Content-Range", "bytes */\(bytes.count)")]))
                    return
                }
                connection.send(ScriptedHTTPServer.response(206, "Partial Content", headers: [
                    ("Content-Range", "bytes \(start)-\(bytes.count - 1)/\(bytes.count)"), ("Content-Type", "image/png"),
                ], body: Array(bytes[start...])))
                return
            }
            let response = ScriptedHTTPServer.response(200, "OK", headers: [("Content-Type", "image/png")], body: bytes)
            if let cutAfter {
                // Headers and part of the body, then the connection drops.
                connection.send(Array(response.prefix(response.count - bytes.count + cutAfter)))
                connection.close()
            } else {
                connection.send(response)
            }
        }
    }

    static func client() throws -> CurlHTTPClient { try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2)) }

    @Test func aWholeFileArrivesWithItsProgress() throws {
        let server = try Self.storage()
        defer { server.stop() }
        let part = try PartFile()
        let client = try Self.client()
        var seen: [TransferProgress] = []
        let result = try client.download(DownloadRequest(url: server.baseURL() + "/file?X-Amz-Signature=s"),
                                         into: part.sink) { seen.append($0) }
        #expect(result.saved)
        #expect(result.response.status == 200)
        #expect(result.response.body.isEmpty)
        #expect(result.fileSize == Int64(Self.content.count))
        #expect(part.contents == Self.content)
        #expect(seen.last == TransferProgress(bytes: Int64(Self.content.count), total: Int64(Self.content.count)))
        #expect(server.requests.first?.header("Range") == nil)
    }

    @Test func aPartialFileResumesWithARange() throws {
        let server = try Self.storage()
        defer { server.stop() }
        let part = try PartFile(holding: Self.content.prefix(70_000))
        let client = try Self.client()
        var seen: [TransferProgress] = []
        let result = try client.download(DownloadRequest(url: server.baseURL() + "/file", resumeFrom: 70_000),
                                         into: part.sink) { seen.append($0) }
        #expect(result.saved)
        #expect(result.response.status == 206)
        #expect(server.requests.first?.header("Range") == "bytes=70000-")
        #expect(part.contents == Self.content)
        // Progress counts what was there before.
        #expect(seen.allSatisfy { $0.bytes >= 70_000 && $0.total == Int64(Self.content.count) })
    }

    @Test func aResumeChecksTheBytesBeforeItsPointAndWritesOnlyTheRest() throws {
        let server = try Self.storage()
        defer { server.stop() }
        let part = try PartFile(holding: Self.content.prefix(70_000))
        let client = try Self.client()
        var seen: [TransferProgress] = []
        let result = try client.download(DownloadRequest(url: server.baseURL() + "/file", resumeFrom: 70_000, verifiedOverlap: 4096),
                                         into: part.sink) { seen.append($0) }
        #expect(result.saved && result.fileSize == Int64(Self.content.count))
        #expect(server.requests.map { $0.header("Range") } == ["bytes=65904-"])
        #expect(part.contents == Self.content)
        #expect(seen.allSatisfy { $0.bytes >= 70_000 })
    }

    @Test func aPartHoldingAnotherFilesBytesStartsOver() throws {
        let server = try Self.storage()
        defer { server.stop() }
        let part = try PartFile(holding: Self.content.prefix(70_000).map { $0 ^ 0x5A })
        let client = try Self.client()
        let result = try client.download(DownloadRequest(url: server.baseURL() + "/file", resumeFrom: 70_000, verifiedOverlap: 4096),
                                         into: part.sink) { _ in }
        #expect(result.saved)
        #expect(server.requests.map { $0.header("Range") } == ["bytes=65904-", nil])
        #expect(part.contents == Self.content)
    }

    @Test func aCheckedPartAlreadyWholeGetsNoByteWritten() throws {
        let server = try Self.storage()
        defer { server.stop() }
        let part = try PartFile(holding: Self.content)
        let client = try Self.client()
        let result = try client.download(DownloadRequest(url: server.baseURL() + "/file", resumeFrom: Int64(Self.content.count), verifiedOverlap: 4096),
                                         into: part.sink) { _ in }
        #expect(result.saved && result.fileSize == Int64(Self.content.count))
        #expect(part.contents == Self.content)
    }

    @Test func aServerIgnoringTheRangeMakesItStartOver() throws {
        let server = try Self.storage(honourRanges: false)
        defer { server.stop() }
        let part = try PartFile(holding: [UInt8](repeating: 0xEE, count: 5000))
        let client = try Self.client()
        let result = try client.download(DownloadRequest(url: server.baseURL() + "/file", resumeFrom: 5000),
                                         into: part.sink) { _ in }
        #expect(result.saved)
        #expect(part.contents == Self.content)
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.header("Range") == nil)
    }

    @Test func aFileAlreadyWholeIsDoneWithoutItsBytesAgain() throws {
        let server = try Self.storage()
        defer { server.stop() }
        let part = try PartFile(holding: Self.content)
        let client = try Self.client()
        let result = try client.download(DownloadRequest(url: server.baseURL() + "/file", resumeFrom: Int64(Self.content.count)),
                                         into: part.sink) { _ in }
        #expect(result.saved)
        #expect(result.response.status == 416)
        #expect(result.fileSize == Int64(Self.content.count))
        #expect(part.contents == Self.content)
    }

    @Test func aDroppedConnectionKeepsWhatArrivedForTheNextAttempt() throws {
        let cut = try Self.storage(cutAfter: 50_000)
        defer { cut.stop() }
        let part = try PartFile()
        let client = try Self.client()
        let error = try #require(throws: HTTPError.self) {
            try client.download(DownloadRequest(url: cut.baseURL() + "/file"), into: part.sink) { _ in }
        }
        #expect(error.kind == .other)
        #expect(part.contents == Array(Self.content.prefix(50_000)))

        let whole = try Self.storage()
        defer { whole.stop() }
        let result = try client.download(DownloadRequest(url: whole.baseURL() + "/file", resumeFrom: 50_000),
                                         into: part.sink) { _ in }
        #expect(result.saved)
        #expect(whole.requests.first?.header("Range") == "bytes=50000-")
        #expect(part.contents == Self.content)
    }

    @Test func aFullDiskFailsNamingTheFileAndSayingWhy() throws {
        let server = try Self.storage()
        defer { server.stop() }
        // /dev/full takes no byte: every write fails with ENOSPC.
        let fd = Glibc.open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let client = try Self.client()
        let error = try #require(throws: HTTPError.self) {
            try client.download(DownloadRequest(url: server.baseURL() + "/file"),
                                into: DownloadSink(fileDescriptor: fd, description: "/tmp/cat.png.part")) { _ in }
        }
        #expect(error.kind == .localFile)
        #expect(error.detail == "cannot write /tmp/cat.png.part: No space left on device")
    }

    @Test func redirectsAndRefusalsComeBackUnfollowedWithNothingWritten() throws {
        let server = try ScriptedHTTPServer { request, connection in
            if request.target.hasPrefix("/blobs/") {
                connection.send(ScriptedHTTPServer.response(301, "Moved Permanently", headers: [("Location", "http://127.0.0.1:1/file")]))
            } else {
                connection.send(ScriptedHTTPServer.response(403, "Forbidden", body: Array("<Error><Code>AccessDenied</Code></Error>".utf8)))
            }
        }
        defer { server.stop() }
        let part = try PartFile()
        let client = try Self.client()
        let moved = try client.download(DownloadRequest(url: server.baseURL() + "/blobs/abc.json"),
                                        into: part.sink) { _ in }
        #expect(!moved.saved)
        #expect(moved.response.status == 301)
        #expect(moved.response.header("Location") == "http://127.0.0.1:1/file")
        let refused = try client.download(DownloadRequest(url: server.baseURL() + "/file"),
                                          into: part.sink) { _ in }
        #expect(!refused.saved)
        #expect(refused.response.status == 403)
        #expect(String(decoding: refused.response.body, as: UTF8.self) == "<Error><Code>AccessDenied</Code></Error>")
        #expect(part.contents.isEmpty)
        #expect(server.requests.count == 2)
    }

    @Test func aSilentServerTimesOutInsteadOfHanging() throws {
        let server = try ScriptedHTTPServer { _, _ in }
        defer { server.stop() }
        let fd = Glibc.open("/dev/null", O_WRONLY)
        defer { close(fd) }
        let client = try Self.client()
        let started = Date()
        let error = try #require(throws: HTTPError.self) {
            try client.download(DownloadRequest(url: server.baseURL() + "/file", stallTimeout: 1),
                                into: DownloadSink(fileDescriptor: fd, description: "null")) { _ in }
        }
        #expect(error.kind == .timedOut)
        #expect(Date().timeIntervalSince(started) < 10)
    }
}

/// A `.part` file in a directory of its own, holding some bytes, open read-write
/// at its end as a resuming download finds it.
final class PartFile {
    let directory: TemporaryDirectory
    let path: String
    let fd: Int32

    init<Bytes: Sequence<UInt8>>(holding bytes: Bytes = [UInt8]()) throws {
        directory = try TemporaryDirectory()
        path = directory.file("cat.png.part")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        fd = open(path, O_RDWR)
        try #require(fd >= 0)
        _ = lseek(fd, 0, SEEK_END)
    }

    deinit { close(fd) }

    var sink: DownloadSink { DownloadSink(fileDescriptor: fd, description: path) }
    var contents: [UInt8] { Array((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()) }
}
