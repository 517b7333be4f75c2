// Custom objects (docs/protocol.md §13) on a real sandbox: records and the files of their file
// fields kept in `--db` (and its blob directory) across a restart; uploads as curl makes them.
import Foundation
import Testing
import TestSupport

@Suite struct CustomObjectProcessTests {
    /// `POST /data/{cls}/{id}/file.json` as a multipart upload of `file` into `field`.
    func upload(_ s: BlobSandbox, _ path: String, field: String, file: String, token: String) throws -> CurlResult {
        try s.curl(["-H", "QB-Token: \(token)", "-F", "field_name=\(field)", "-F", "file=@\(file);type=application/octet-stream",
                    s.sandbox.apiEndpoint + path])
    }

    @Test func recordsAndTheirFilesOutliveARestartAndGoWithTheirRecord() throws {
        let directory = try TemporaryDirectory(prefix: "chatctl-objects")
        var s: BlobSandbox? = try BlobSandbox(directory: directory)
        let alice = try s!.user("alice")
        let created = try s!.sandbox.send(method: "POST", path: "/data/cars.json", body: #"{"make":"BMW","value":100,"tags":["a"]}"#,
                                          contentType: "application/json", token: alice.token)
        #expect(created.status == 201)
        let id = try #require((created.json as? [String: Any])?["_id"] as? String)
        let file = try s!.makeFile("motor.bin", size: 300 * 1024)
        let uploaded = try upload(s!, "/data/cars/\(id)/file.json", field: "motors", file: file, token: alice.token)
        #expect(uploaded.status == 200, "\(uploaded.body)")
        #expect(s!.storedFiles().count == 1)
        // Over what the REST port reads in one request: 413, and nothing changes.
        let large = try s!.makeFile("large.bin", size: 2 << 20)
        #expect(try upload(s!, "/data/cars/\(id)/file.json", field: "motors", file: large, token: alice.token).status == 413)
        _ = s!.sandbox.stop()
        s = nil

        let again = try BlobSandbox(directory: directory)
        let token = try again.sandbox.createSession(login: "alice", password: "alice-secret-1")
        let listed = try again.sandbox.response(method: "GET", path: "/data/cars.json", params: [("value", "100")], token: token)
        let item = try #require(((listed.json as? [String: Any])?["items"] as? [[String: Any]])?.first)
        #expect(item["_id"] as? String == id && item["make"] as? String == "BMW" && item["tags"] as? [String] == ["a"])
        #expect((item["motors"] as? [String: Any])?["size"] as? Int == 300 * 1024)
        // The link QB.data.fileUrl builds: the token in the query, a redirect to the storage.
        let redirect = try again.sandbox.response(method: "GET", path: "/data/cars/\(id)/file.json",
                                                  params: [("field_name", "motors"), ("token", token)])
        let location = try #require(redirect.headers["location"])
        #expect(redirect.status == 301)
        let copy = directory.file("copy.bin")
        #expect(try again.get(location, output: copy).status == 200)
        #expect(try sameContents(file, copy))
        // Deleting the record deletes its file.
        #expect(try again.sandbox.response(method: "DELETE", path: "/data/cars/\(id).json", token: token).status == 200)
        #expect(again.storedFiles().isEmpty)
        #expect(try again.get(location).status == 404)
    }
}
