import Foundation
import Testing
import HTTPTransport
import TestSupport

/// Uploads stream a file from a descriptor as the last part of a multipart form
/// (docs/protocol.md §8), against a local server that reads the form back.
@Suite struct MultipartUploadTests {
    static func file(_ bytes: [UInt8], in directory: TemporaryDirectory, name: String = "upload.bin") throws -> (String, Int32) {
        let path = directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        return (path, fd)
    }

    @Test func theFieldsGoInOrderAndTheFileLastAsItIsOnDisk() throws {
        let server = try ScriptedHTTPServer { _, connection in
            connection.send(ScriptedHTTPServer.response(201, "Created"))
        }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let (path, fd) = try Self.file(bytes, in: directory)
        defer { close(fd) }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let fields: [MultipartUploadRequest.Field] = [
            .init("key", "30a8bcd7c714417eb62b95350d7e13b900"), .init("Content-Type", "image/png"),
            .init("policy", "eyJ+base64/=="), .init("x-amz-signature", "a&b=c d"), .init("empty", ""),
        ]
        var seen: [TransferProgress] = []
        let response = try client.upload(MultipartUploadRequest(
            url: server.baseURL() + "/blobs/7/upload/", headers: [HTTPHeader("QB-Token", "tok")], fields: fields,
            file: UploadFile(fileDescriptor: fd, size: Int64(bytes.count), name: "cat \"1\".png", contentType: "image/png", description: path))
        ) { seen.append($0) }

        #expect(response.status == 201)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/blobs/7/upload/")
        #expect(request.header("QB-Token") == "tok")
        #expect(request.header("Content-Length") == String(request.body.count))
        let form = try #require(MultipartBody(contentType: request.header("Content-Type") ?? "", body: request.body))
        #expect(form.parts.map(\.name) == fields.map(\.name) + ["file"])
        #expect(form.parts.dropLast().map { String(decoding: $0.body, as: UTF8.self) } == fields.map(\.value))
        let filePart = try #require(form.parts.last)
        #expect(filePart.body == bytes)
        #expect(filePart.contentType == "image/png")
        // curl escapes the quotes of a file name as browsers do.
        #expect(filePart.filename == "cat %221%22.png")
        #expect(seen.last == TransferProgress(bytes: Int64(bytes.count), total: Int64(bytes.count)))
        #expect(seen.map(\.bytes) == seen.map(\.bytes).sorted())
    }

    @Test func aRefusalComesBackWithItsBody() throws {
        let xml = "<?xml version=\"1.0\"?><Error><Code>EntityTooLarge</Code><Message>Too big</Message></Error>"
        let server = try ScriptedHTTPServer { _, connection in
            connection.send(ScriptedHTTPServer.response(400, "Bad Request", headers: [("Content-Type", "application/xml")], body: Array(xml.utf8)))
        }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let (path, fd) = try Self.file(Array(repeating: 1, count: 1000), in: directory)
        defer { close(fd) }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let response = try client.upload(MultipartUploadRequest(
            url: server.baseURL() + "/upload", fields: [],
            file: UploadFile(fileDescriptor: fd, size: 1000, name: "a", contentType: "application/octet-stream", description: path))) { _ in }
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self) == xml)
    }

    @Test func aFileShorterThanAnnouncedFailsNamingTheFile() throws {
        let server = try ScriptedHTTPServer { _, connection in connection.send(ScriptedHTTPServer.response(201, "Created")) }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let (path, fd) = try Self.file(Array(repeating: 1, count: 1000), in: directory)
        defer { close(fd) }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let error = try #require(throws: HTTPError.self) {
            try client.upload(MultipartUploadRequest(
                url: server.baseURL() + "/upload", fields: [],
                file: UploadFile(fileDescriptor: fd, size: 5000, name: "a", contentType: "text/plain", description: path))) { _ in }
        }
        #expect(error.kind == .localFile)
        #expect(error.detail == "\(path) changed while it was sent: it ends after 1000 of 5000 bytes")
    }

    @Test func anUnreadableDescriptorFailsNamingTheFile() throws {
        let server = try ScriptedHTTPServer { _, connection in connection.send(ScriptedHTTPServer.response(201, "Created")) }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        // A directory opens, but reading it fails (EISDIR).
        let fd = open(directory.path, O_RDONLY)
        defer { close(fd) }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let error = try #require(throws: HTTPError.self) {
            try client.upload(MultipartUploadRequest(
                url: server.baseURL() + "/upload", fields: [],
                file: UploadFile(fileDescriptor: fd, size: 10, name: "a", contentType: "text/plain", description: "dir"))) { _ in }
        }
        #expect(error.kind == .localFile)
        #expect(error.detail == "cannot read dir: Is a directory")
    }

    @Test func aServerThatStopsReadingTimesOutInsteadOfHanging() throws {
        // Reads the head, then never answers: the stall limit ends the wait.
        let server = try ScriptedHTTPServer { _, _ in }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let (path, fd) = try Self.file(Array(repeating: 1, count: 10), in: directory)
        defer { close(fd) }
        let client = try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2))
        let started = Date()
        let error = try #require(throws: HTTPError.self) {
            try client.upload(MultipartUploadRequest(
                url: server.baseURL() + "/upload", fields: [],
                file: UploadFile(fileDescriptor: fd, size: 10, name: "a", contentType: "text/plain", description: path),
                stallTimeout: 1)) { _ in }
        }
        #expect(error.kind == .timedOut)
        // curl judges the speed over its last five seconds or so, then the limit runs.
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
