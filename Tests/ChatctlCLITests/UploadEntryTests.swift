import Foundation
import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport
@testable import ChatctlCLI

/// The upload entry point a command uses (`send --attach` will): the source checked
/// and judged, the three calls, the progress bar drawn and cleared.
@Suite struct UploadEntryTests {
    @Test func aFileGoesUpWithItsBarAndComesBackAsAnAttachment() throws {
        let uid = "30a8bcd7c714417eb62b95350d7e13b900"
        let uploaded = ResultBox<[UInt8]>()
        let storage = try ScriptedHTTPServer { request, connection in
            let form = MultipartBody(contentType: request.header("Content-Type") ?? "", body: request.body)
            uploaded.append(form?.parts.last?.body ?? [])
            connection.send(ScriptedHTTPServer.response(201, "Created"))
        }
        defer { storage.stop() }
        let params = "\(storage.baseURL(host: "localhost"))/blobs/5/upload/?key=\(uid)"
        let api = try ScriptedHTTPServer { request, connection in
            let body = request.method == "POST" ? #"{"blob":{"id":5,"uid":"\#(uid)","blob_object_access":{"params":"\#(params)"}}}"# : ""
            connection.send(ScriptedHTTPServer.response(request.method == "POST" ? 201 : 200, "OK", body: Array(body.utf8)))
        }
        defer { api.stop() }
        let state = try TemporaryDirectory()
        let path = state.file("note.txt")
        try Data("plain words, nothing more\n".utf8).write(to: URL(fileURLWithPath: path))
        let io = TerminalStderr()
        let context = CommandContext(globals: Chatctl(), path: ["chatctl", "send"], environment: ["CHATCTL_STATE_DIR": state.path], io: io)
        let client = QuickBloxClient(apiEndpoint: api.baseURL(), credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                                     transport: try CurlHTTPClient(options: HTTPClientOptions(connectTimeout: 2)))
        client.token = "tok"

        let source = try context.uploadSource(path, name: nil)
        let (blob, attachment) = try context.upload(source, api: client, quiet: false)

        #expect(blob.uid == uid && blob.size == 26)
        #expect(attachment == QBAttachment(type: "file", id: uid, name: "note.txt", size: 26, contentType: "text/plain"))
        #expect(uploaded.first == Array("plain words, nothing more\n".utf8))
        #expect(api.requests.map { "\($0.method) \($0.target)" } == ["POST /blobs.json", "PUT /blobs/5/complete.json"])
        #expect(io.err.first?.hasPrefix("\rnote.txt ") == true)
        #expect(io.err.last == "\r\u{1B}[K")
    }

    @Test func aMissingFileFailsBeforeAnyRequestWithExit2() throws {
        let state = try TemporaryDirectory()
        let context = CommandContext(globals: Chatctl(), path: ["chatctl", "send"], environment: ["CHATCTL_STATE_DIR": state.path], io: CapturedIO())
        let error = try #require(throws: CommandError.self) { try context.uploadSource(state.file("gone.jpg"), name: nil) }
        let io = CapturedIO()
        #expect(Chatctl.report(error, io: io) == 2)
        #expect(io.err == "chatctl: cannot attach \(state.file("gone.jpg")): no such file\n")
    }
}
