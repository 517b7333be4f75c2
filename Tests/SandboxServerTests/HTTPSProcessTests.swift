// `chatctl-sandbox --https` (docs/protocol.md §1): the REST API, the storage endpoint and the
// WebSocket port over TLS with the certificate of the config's caFile, driven by curl with
// --cacert as a developer would, down to the JS SDK's download URL.
import Foundation
import Testing
import TestSupport

/// A REST call through curl (TLS verified against `caFile` when given), form-encoded.
private func call(_ s: BlobSandbox, _ method: String, _ path: String, params: [(String, String)] = [],
                  token: String? = nil, caFile: String?) throws -> CurlResult {
    var arguments = caFile.map { ["--cacert", $0] } ?? []
    arguments += ["-X", method]
    if let token { arguments += ["-H", "QB-Token: \(token)"] }
    var url = s.sandbox.apiEndpoint + path
    let encoded = SandboxSigning.formEncode(params)
    if method == "GET" || method == "DELETE" {
        if !encoded.isEmpty { url += "?" + encoded }
    } else {
        arguments += ["-H", "Content-Type: application/x-www-form-urlencoded", "--data-binary", encoded]
    }
    return try s.curl(arguments + [url])
}

private func json(_ r: CurlResult) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(r.body.utf8))) as? [String: Any] ?? [:]
}

/// A signed session (a user's with `login`), over curl.
private func session(_ s: BlobSandbox, login: String? = nil, caFile: String?) throws -> String {
    var extra: [(String, String)] = []
    if let login { extra = [("user[login]", login), ("user[password]", "\(login)-secret-1")] }
    let params = SandboxSigning.sessionParameters(applicationId: s.sandbox.applicationId, authKey: s.sandbox.authKey,
                                                   secret: s.sandbox.authSecret, extra: extra)
    let r = try call(s, "POST", "/session.json", params: params, caFile: caFile)
    guard r.status == 201, let token = (json(r)["session"] as? [String: Any])?["token"] as? String else {
        throw TestSupportError("POST /session.json answered \(r.status): \(r.body) \(r.stderr)")
    }
    return token
}

@Suite struct HTTPSProcessTests {
    @Test func theConfigLineAdvertisesHTTPSAndWSSAndTheWebSocketPortSpeaksTLS() throws {
        let directory = try TemporaryDirectory(prefix: "chatctl-https")
        let database = directory.file("sandbox.sqlite")
        let sandbox = try SandboxProcess(arguments: ["--https", "--ws-port", "0", "--db", database])
        let endpoints = try #require(sandbox.config["endpoints"] as? [String: Any])
        let api = try #require(endpoints["api"] as? String)
        let webSocket = try #require(endpoints["chatWebSocket"] as? String)
        #expect(api.range(of: #"^https://127\.0\.0\.1:[1-9][0-9]*$"#, options: .regularExpression) != nil, "\(api)")
        #expect(webSocket.range(of: #"^wss://127\.0\.0\.1:[1-9][0-9]*$"#, options: .regularExpression) != nil, "\(webSocket)")
        #expect((endpoints["chat"] as? String)?.hasPrefix("xmpp://") == true, "chat stays STARTTLS")
        #expect(sandbox.config["caFile"] as? String == database + ".ca.pem")
        let caFile = database + ".ca.pem"

        // The WebSocket port's TLS is verified with the same file (libwebsockets then refuses a plain GET).
        let wsURL = webSocket.replacingOccurrences(of: "wss://", with: "https://") + "/"
        let ws = try runProcess("/usr/bin/curl", ["-sS", "--cacert", caFile, "-o", "/dev/null", "-w", "%{http_code}", wsURL], timeout: 30)
        #expect(ws.status == 0 && ws.stdout == "400", "curl: \(ws.stdout) \(ws.stderr)")
        let plainWS = try runProcess("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}",
                                                       webSocket.replacingOccurrences(of: "wss://", with: "http://") + "/"], timeout: 30)
        #expect(plainWS.stdout != "400", "plain HTTP is not served on the wss port")
    }

    @Test func theAPIAndTheStorageServeOverTLSAndTheSDKsPrivateURLDownloads() throws {
        let s = try BlobSandbox(["--https"])
        let caFile = try #require(s.sandbox.config["caFile"] as? String, "--https gives a caFile even with --no-chat")
        #expect(s.sandbox.apiEndpoint.hasPrefix("https://"))

        // Without the CA, curl refuses the certificate (exit 60): TLS is verified, not skipped.
        let untrusted = try runProcess("/usr/bin/curl", ["-sS", "-o", "/dev/null", s.sandbox.apiEndpoint + "/session.json"], timeout: 30)
        #expect(untrusted.status == 60, "curl: \(untrusted.status) \(untrusted.stderr)")

        let app = try session(s, caFile: caFile)
        let signUp = try call(s, "POST", "/users.json", params: [("user[login]", "alice"), ("user[password]", "alice-secret-1")],
                              token: app, caFile: caFile)
        #expect(signUp.status == 201, "\(signUp.body)")
        let token = try session(s, login: "alice", caFile: caFile)

        let created = try call(s, "POST", "/blobs.json", params: [("blob[content_type]", "text/plain"), ("blob[name]", "note.txt")],
                               token: token, caFile: caFile)
        let blob = try #require(json(created)["blob"] as? [String: Any], "\(created.status) \(created.body)")
        let id = try #require(blob["id"] as? Int), uid = try #require(blob["uid"] as? String)
        let params = try #require((blob["blob_object_access"] as? [String: Any])?["params"] as? String)
        #expect(params.hasPrefix("https://127.0.0.1:"), "uploads go to the storage over TLS: \(params)")

        let file = s.directory.file("note.txt")
        let content = "a note sent over https\n"
        try content.write(toFile: file, atomically: true, encoding: .utf8)
        // The upload as a QuickBlox client makes it, every query pair a field, to the storage over TLS.
        let target = try #require(URLComponents(string: params))
        var form = ["--cacert", caFile]
        for item in target.queryItems ?? [] { form += ["--form-string", "\(item.name)=\(item.value ?? "")"] }
        let upload = try s.curl(form + ["-F", "file=@\(file)", "https://\(target.host ?? ""):\(target.port ?? 0)\(target.path)"])
        #expect(upload.status == 201, "\(upload.body) \(upload.stderr)")
        let complete = try call(s, "PUT", "/blobs/\(id)/complete.json", params: [("blob[size]", String(content.utf8.count))],
                                token: token, caFile: caFile)
        #expect(complete.status == 200, "\(complete.body)")

        // QB.content.privateUrl(uid): /blobs/UID?token=T, no `.json`; a 301 to the storage over TLS, then the file.
        let redirect = try s.curl(["--cacert", caFile, "\(s.sandbox.apiEndpoint)/blobs/\(uid)?token=\(token)"])
        #expect(redirect.status == 301 && redirect.headers["location"]?.hasPrefix("https://127.0.0.1:") == true,
                "\(redirect.status) \(redirect.headers)")
        let followed = try s.curl(["--cacert", caFile, "-L", "\(s.sandbox.apiEndpoint)/blobs/\(uid)?token=\(token)"])
        #expect(followed.status == 200 && followed.body == content, "\(followed.status) \(followed.body)")
        let withoutToken = try s.curl(["--cacert", caFile, "\(s.sandbox.apiEndpoint)/blobs/\(uid)"])
        #expect(withoutToken.status == 401, "a private blob needs the token: \(withoutToken.body)")
    }
}
