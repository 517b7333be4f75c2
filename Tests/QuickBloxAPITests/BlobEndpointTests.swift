import Foundation
import Testing
import HTTPTransport
@testable import QuickBloxAPI
import TestSupport

/// The content API's calls (docs/protocol.md §8): what goes out, what is read
/// back, and which host sees the session token.
@Suite struct BlobEndpointTests {
    static func blobBody(id: Int = 315, params: String) -> String {
        #"{"blob":{"id":\#(id),"uid":"30a8bcd7c714417eb62b95350d7e13b900","content_type":"image/png","name":"cat.png","size":null,"#
            + #""blob_status":null,"public":false,"blob_object_access":{"id":\#(id),"blob_id":\#(id),"object_access_type":"Write","params":"\#(params)"}}}"#
    }

    @Test func createSendsTheBlobAsJSONAndReadsItsUploadTicket() throws {
        let transport = ScriptedTransport([reply(201, Self.blobBody(params: "http://127.0.0.1:9/blobs/315/upload/?key=k&policy=p"))])
        let blob = try chatClient(transport).createBlob(name: "cat.png", contentType: "image/png")
        #expect(transport.requests[0].method == .post)
        #expect(transport.requests[0].url == "http://127.0.0.1:8080/blobs.json")
        #expect(String(decoding: transport.requests[0].body, as: UTF8.self)
            == #"{"blob":{"content_type":"image/png","name":"cat.png","public":false}}"#)
        #expect(blob.id == 315)
        #expect(blob.upload?.fields == [.init("key", "k"), .init("policy", "p")])
    }

    @Test func aCreatedBlobWithoutAnUploadURLIsAnUnexpectedAnswer() throws {
        let transport = ScriptedTransport([reply(201, #"{"blob":{"id":1,"uid":"u"}}"#)])
        let error = try #require(throws: QuickBloxError.self) { try chatClient(transport).createBlob(name: "a", contentType: "text/plain") }
        #expect(error.kind == .invalidResponse)
        #expect(error.reasons == ["no upload URL in blob_object_access.params"])
    }

    @Test func completeSendsTheSizeInsideBlob() throws {
        let transport = ScriptedTransport([reply(200)])
        try chatClient(transport).completeBlob(id: 315, size: 1_234_567)
        #expect(transport.requests[0].method == .put)
        #expect(transport.requests[0].url == "http://127.0.0.1:8080/blobs/315/complete.json")
        #expect(String(decoding: transport.requests[0].body, as: UTF8.self) == #"{"blob":{"size":1234567}}"#)
    }

    @Test func theDownloadIsTheRedirectsLocation() throws {
        let transport = ScriptedTransport([
            reply(301, "", headers: [HTTPHeader("Location", "https://s3.example.com/b/u?X-Amz-Signature=s")]),
            reply(302, "", headers: [HTTPHeader("Location", "/storage/u?sig=1")]),
            reply(200, "{}"),
            reply(404, #"{"errors":["The resource wasn't found"]}"#),
        ])
        let client = chatClient(transport)
        #expect(try client.blobLocation(uid: "30a8bcd7c714417eb62b95350d7e13b900") == "https://s3.example.com/b/u?X-Amz-Signature=s")
        #expect(transport.requests[0].url == "http://127.0.0.1:8080/blobs/30a8bcd7c714417eb62b95350d7e13b900.json")
        #expect(transport.requests[0].header("QB-Token") == "tok-user")
        #expect(try client.blobLocation(uid: "u") == "http://127.0.0.1:8080/storage/u?sig=1")
        let noRedirect = try #require(throws: QuickBloxError.self) { try client.blobLocation(uid: "u") }
        #expect(noRedirect.kind == .invalidResponse)
        let unknown = try #require(throws: QuickBloxError.self) { try client.blobLocation(uid: "u") }
        #expect(unknown.status == 404)
    }

    @Test func aTransportThatCannotStreamSaysSo() throws {
        let transport = ScriptedTransport([])
        let blob = QBBlob(id: 1, uid: "u", upload: QBBlobUploadTicket(params: "http://127.0.0.1:8080/u?key=k"))
        let error = try #require(throws: QuickBloxError.self) {
            try chatClient(transport).uploadBlobFile(blob, file: UploadFile(fileDescriptor: -1, size: 1, name: "a", contentType: "text/plain", description: "a")) { _ in }
        }
        #expect(error.reasons == ["this transport cannot stream files"])
        #expect(transport.requests.isEmpty)
    }

    /// The whole round through real HTTP: the API on 127.0.0.1, the storage on
    /// `localhost` (another host). The token goes to the API only.
    @Test func theTokenGoesToTheAPIHostAndNeverToTheStorageHost() throws {
        let content = Array("a small PNG, say".utf8)
        let storage = try ScriptedHTTPServer { request, connection in
            if request.method == "POST" {
                connection.send(ScriptedHTTPServer.response(201, "Created"))
            } else {
                connection.send(ScriptedHTTPServer.response(200, "OK", headers: [("Content-Type", "image/png")], body: content))
            }
        }
        defer { storage.stop() }
        let storageBase = storage.baseURL(host: "localhost")
        let api = try ScriptedHTTPServer { request, connection in
            switch (request.method, request.target) {
            case ("POST", "/blobs.json"):
                let body = Self.blobBody(params: "\(storageBase)/blobs/315/upload/?key=30a8&policy=cG9s%2Bw%3D%3D")
                connection.send(ScriptedHTTPServer.response(201, "Created", body: Array(body.utf8)))
            case ("PUT", "/blobs/315/complete.json"):
                connection.send(ScriptedHTTPServer.response(200, "OK"))
            default:
                connection.send(ScriptedHTTPServer.response(301, "Moved Permanently", headers: [("Location", "\(storageBase)/files/30a8?X-Amz-Signature=s")]))
            }
        }
        defer { api.stop() }
        let directory = try TemporaryDirectory()
        let source = directory.file("cat.png")
        try Data(content).write(to: URL(fileURLWithPath: source))
        let input = open(source, O_RDONLY)
        defer { close(input) }
        let client = QuickBloxClient(apiEndpoint: api.baseURL(), credentials: QuickBloxClientTests.app,
                                     transport: try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2)))
        client.token = "tok-user"

        let blob = try client.createBlob(name: "cat.png", contentType: "image/png")
        try client.uploadBlobFile(blob, file: UploadFile(fileDescriptor: input, size: Int64(content.count), name: "cat.png",
                                                         contentType: "image/png", description: source)) { _ in }
        try client.completeBlob(id: blob.id, size: Int64(content.count))
        let location = try client.blobLocation(uid: blob.uid)
        let output = open(directory.file("copy.png"), O_WRONLY | O_CREAT, 0o644)
        defer { close(output) }
        let size = try client.downloadBlobFile(from: location, into: DownloadSink(fileDescriptor: output, description: "copy.png"),
                                               resumeFrom: 0) { _ in }

        #expect(size == Int64(content.count))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("copy.png")))) == content)
        #expect(api.requests.map { "\($0.method) \($0.target)" } == [
            "POST /blobs.json", "PUT /blobs/315/complete.json", "GET /blobs/30a8bcd7c714417eb62b95350d7e13b900.json",
        ])
        #expect(api.requests.allSatisfy { $0.header("QB-Token") == "tok-user" })
        #expect(storage.requests.map { "\($0.method) \($0.target)" } == ["POST /blobs/315/upload/", "GET /files/30a8?X-Amz-Signature=s"])
        #expect(storage.requests.allSatisfy { $0.header("QB-Token") == nil })
        let form = try #require(MultipartBody(contentType: storage.requests[0].header("Content-Type") ?? "", body: storage.requests[0].body))
        #expect(form.parts.map(\.name) == ["key", "policy", "file"])
        #expect(String(decoding: form.parts[1].body, as: UTF8.self) == "cG9s+w==")
        #expect(form.parts[2].body == content)
    }

    @Test func anUploadURLOnTheAPIHostGetsTheTokenAndARefusalReadsAsS3Says() throws {
        let api = try ScriptedHTTPServer { request, connection in
            let xml = "<Error><Code>AccessDenied</Code><Message>Policy expired</Message></Error>"
            connection.send(ScriptedHTTPServer.response(403, "Forbidden", body: Array(xml.utf8)))
        }
        defer { api.stop() }
        let directory = try TemporaryDirectory()
        let source = directory.file("a.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: source))
        let input = open(source, O_RDONLY)
        defer { close(input) }
        let client = QuickBloxClient(apiEndpoint: api.baseURL(), credentials: QuickBloxClientTests.app,
                                     transport: try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2)))
        client.token = "tok-user"
        let blob = QBBlob(id: 9, uid: "u9", upload: QBBlobUploadTicket(params: "\(api.baseURL())/blobs/9/upload/?key=u9"))
        let error = try #require(throws: QuickBloxError.self) {
            try client.uploadBlobFile(blob, file: UploadFile(fileDescriptor: input, size: 5, name: "a.txt", contentType: "text/plain", description: source)) { _ in }
        }
        #expect(error.status == 403)
        #expect(error.reasons == ["AccessDenied: Policy expired"])
        #expect(error.request == "POST \(api.baseURL())/blobs/9/upload/")
        #expect(api.requests.first?.header("QB-Token") == "tok-user")
    }
}
