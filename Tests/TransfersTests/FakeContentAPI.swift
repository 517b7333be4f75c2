import Foundation
import HTTPTransport
import QuickBloxAPI
import Synchronization
import TestSupport

/// A content API on loopback, as docs/protocol.md §8 has it: the REST side on
/// 127.0.0.1 and a storage on `localhost` (another host), files in memory (test
/// files are small). `cutFirstDownloadAfter` drops the first download's
/// connection after that many bytes.
final class FakeContentAPI: Sendable {
    struct State {
        var files: [String: [UInt8]] = [:]
        var names: [String: String] = [:]
        var completed: [Int: Int] = [:]
        var downloads = 0
    }
    final class Shared: Sendable {
        let mutex = Mutex(State())
        func withLock<T>(_ body: (inout State) -> T) -> T { mutex.withLock { body(&$0) } }
    }
    let state = Shared()
    let storage: ScriptedHTTPServer
    let api: ScriptedHTTPServer
    static let uid = "30a8bcd7c714417eb62b95350d7e13b900"

    /// `serving`: the file it holds under `uid` from the start; `maximumSize`: the
    /// largest file its upload policies admit (`content-length-range`).
    init(serving file: [UInt8]? = nil, cutFirstDownloadAfter cut: Int? = nil, refuseUploads: String? = nil,
         maximumSize: Int? = nil) throws {
        let state = self.state
        if let file { state.withLock { $0.files[Self.uid] = file } }
        storage = try ScriptedHTTPServer { request, connection in
            if request.method == "POST" {
                if let refuseUploads {
                    connection.send(ScriptedHTTPServer.response(400, "Bad Request", body: Array(refuseUploads.utf8)))
                    return
                }
                guard let form = MultipartBody(contentType: request.header("Content-Type") ?? "", body: request.body),
                      let key = form.parts.first(where: { $0.name == "key" }), form.parts.last?.name == "file" else {
                    connection.send(ScriptedHTTPServer.response(400, "Bad Request"))
                    return
                }
                state.withLock { $0.files[String(decoding: key.body, as: UTF8.self)] = form.parts.last!.body }
                connection.send(ScriptedHTTPServer.response(201, "Created"))
                return
            }
            let uid = String(request.target.dropFirst("/files/".count).prefix { $0 != "?" })
            guard let bytes = state.withLock({ $0.files[uid] }) else {
                connection.send(ScriptedHTTPServer.response(404, "Not Found", body: Array("<Error><Code>NoSuchKey</Code></Error>".utf8)))
                return
            }
            let first = state.withLock { s -> Bool in s.downloads += 1; return s.downloads == 1 }
            var start = 0
            if let range = request.header("Range"), let from = Int(range.dropFirst(6).split(separator: "-").first ?? "") { start = from }
            let body = Array(bytes[start...])
            let response = start > 0
                ? ScriptedHTTPServer.response(206, "Partial Content", headers: [("Content-Range", "bytes \(start)-\(bytes.count - 1)/\(bytes.count)")], body: body)
                : ScriptedHTTPServer.response(200, "OK", body: body)
            if first, let cut {
                connection.send(Array(response.prefix(response.count - body.count + cut)))
                connection.close()
            } else {
                connection.send(response)
            }
        }
        let storageBase = storage.baseURL(host: "localhost")
        api = try ScriptedHTTPServer { request, connection in
            let target = request.target
            if request.method == "POST", target == "/blobs.json" {
                let name = (try? JSONDecoder().decode(JSONValue.self, from: Data(request.body)))?["blob"]?["name"]?.stringValue ?? ""
                state.withLock { $0.names[Self.uid] = name }
                let policy = maximumSize.map { Data(#"{"conditions":[["content-length-range",0,\#($0)]]}"#.utf8).base64EncodedString() }
                let params = "\(storageBase)/blobs/315/upload/?key=\(Self.uid)&policy=\(policy?.replacing("=", with: "%3D") ?? "cG9s")"
                let body = #"{"blob":{"id":315,"uid":"\#(Self.uid)","name":"\#(name)","blob_object_access":{"params":"\#(params)"}}}"#
                connection.send(ScriptedHTTPServer.response(201, "Created", body: Array(body.utf8)))
            } else if request.method == "PUT", target == "/blobs/315/complete.json" {
                let size = (try? JSONDecoder().decode(JSONValue.self, from: Data(request.body)))?["blob"]?["size"]?.intValue ?? -1
                state.withLock { $0.completed[315] = size }
                connection.send(ScriptedHTTPServer.response(200, "OK"))
            } else if target.hasPrefix("/blobs/forbidden") {
                connection.send(ScriptedHTTPServer.response(403, "Forbidden", body: Array(#"{"errors":["You don't have appropriate permissions to perform this operation"]}"#.utf8)))
            } else if target.hasPrefix("/blobs/"), target.hasSuffix(".json") {
                let uid = String(target.dropFirst("/blobs/".count).dropLast(".json".count))
                guard state.withLock({ $0.files[uid] }) != nil else {
                    connection.send(ScriptedHTTPServer.response(404, "Not Found", body: Array(#"{"errors":["The resource wasn't found"]}"#.utf8)))
                    return
                }
                connection.send(ScriptedHTTPServer.response(301, "Moved Permanently", headers: [("Location", "\(storageBase)/files/\(uid)?X-Amz-Signature=s")]))
            } else {
                connection.send(ScriptedHTTPServer.response(404, "Not Found"))
            }
        }
    }

    func client() throws -> QuickBloxClient {
        let client = QuickBloxClient(apiEndpoint: api.baseURL(), credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                                     transport: try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2)))
        client.retryPolicy = .never
        client.token = "tok-user"
        return client
    }

    func stop() { api.stop(); storage.stop() }
}
