// CORS on a real chatctl-sandbox (docs/protocol.md §10): preflights on every route family,
// the headers on answers, errors, the blob redirect and the storage endpoint, and what
// --cors-origin changes, over sockets and curl as a browser would ask.
import Foundation
import Testing
import TestSupport

/// The headers a preflight sends: its origin, and the method and headers of the request to come.
private func preflightHeaders(origin: String?, method: String, headers: String = "content-type,qb-token") -> [(String, String)] {
    var list = [("Access-Control-Request-Method", method), ("Access-Control-Request-Headers", headers)]
    if let origin { list.append(("Origin", origin)) }
    return list
}

private let expectedAllowedHeaders = ["Content-Type", "QB-Token", "QB-SDK", "QB-OS", "QB-Account-Key", "QuickBlox-REST-API-Version", "Range"]

@Suite struct CORSRESTProcessTests {
    /// One path of each route family, with the method a page would use there.
    static let routes: [(String, String)] = [
        ("POST", "/session.json"), ("DELETE", "/session.json"), ("POST", "/login.json"), ("POST", "/users.json"),
        ("GET", "/users/1.json"), ("GET", "/users/by_login.json"), ("GET", "/account_settings.json"),
        ("GET", "/chat/Dialog.json"), ("PUT", "/chat/Dialog/5f0a1b2c3d4e5f6a7b8c9d0e.json"),
        ("POST", "/chat/Message.json"), ("PUT", "/chat/Message/5f0a1b2c3d4e5f6a7b8c9d0e.json"),
        ("DELETE", "/chat/Message/5f0a1b2c3d4e5f6a7b8c9d0e.json"), ("GET", "/chat/Message/unread.json"),
        ("POST", "/blobs.json"), ("PUT", "/blobs/1/complete.json"), ("GET", "/blobs/d64623bb74c5d5e960790860981b134a00.json"),
        ("DELETE", "/blobs/1.json"), ("GET", "/no/such/route.json"),
    ]

    @Test func everyRouteFamilyAnswersAPreflightWith204AndTheAllowHeaders() throws {
        let sandbox = try restSandbox(["--log-level", "debug"])
        for (method, path) in Self.routes {
            for origin in ["null", "http://localhost:3000"] {
                let r = try sandbox.send(method: "OPTIONS", path: path, headers: preflightHeaders(origin: origin, method: method))
                #expect(r.status == 204, "OPTIONS \(path) from \(origin): \(r.status) \(r.body)")
                #expect(r.body.isEmpty)
                #expect(r.headers["access-control-allow-origin"] == "*", "\(path)")
                #expect(r.headers["access-control-allow-methods"]?.components(separatedBy: ", ").contains(method) == true, "\(path)")
                let allowed = r.headers["access-control-allow-headers"]?.components(separatedBy: ", ") ?? []
                #expect(expectedAllowedHeaders.allSatisfy(allowed.contains), "\(path): \(allowed)")
                #expect(r.headers["access-control-expose-headers"] == "QB-Token-ExpirationDate")
                #expect(r.headers["access-control-max-age"] == "600")
                #expect(r.headers["access-control-allow-credentials"] == nil, "the token is a header, never a cookie")
            }
        }
        // The preflight's query (a token, say) is not written to the log.
        let secret = "0123456789abcdef0123456789abcdef01234567"
        _ = try sandbox.send(method: "OPTIONS", path: "/blobs/x.json", query: "token=\(secret)",
                             headers: preflightHeaders(origin: "null", method: "GET"))
        let logged = try sandbox.waitForLog(containing: "OPTIONS /blobs/x.json -> 204")
        #expect(!logged.contains(secret) && !sandbox.stderr.contains(secret))
    }

    @Test func answersAndErrorsCarryTheHeadersAndTheExpiryIsReadable() throws {
        let sandbox = try restSandbox()
        let origin = [("Origin", "http://localhost:3000")]
        func expectCORS(_ r: SandboxHTTPResponse, _ what: String) {
            #expect(r.headers["access-control-allow-origin"] == "*", "\(what): \(r.status) \(r.headers)")
            #expect(r.headers["access-control-expose-headers"] == "QB-Token-ExpirationDate", "\(what)")
            #expect(r.headers["access-control-allow-methods"] == "GET, POST, PUT, DELETE", "\(what)")
        }
        // 201, with the expiry a page may read.
        let params = SandboxSigning.sessionParameters(applicationId: sandbox.applicationId, authKey: sandbox.authKey,
                                                       secret: sandbox.authSecret)
        let created = try sandbox.send(method: "POST", path: "/session.json", body: SandboxSigning.formEncode(params),
                                       contentType: "application/x-www-form-urlencoded", headers: origin)
        #expect(created.status == 201)
        #expect(created.headers["qb-token-expirationdate"] != nil)
        expectCORS(created, "a new session")
        let token = try #require(((created.json as? [String: Any])?["session"] as? [String: Any])?["token"] as? String)

        // Sign-up, then the 422 a page must be able to read to log in instead.
        let signUp = SandboxSigning.formEncode([("user[login]", "webuser"), ("user[password]", "web-secret-1")])
        let first = try sandbox.send(method: "POST", path: "/users.json", body: signUp,
                                     contentType: "application/x-www-form-urlencoded", token: token, headers: origin)
        #expect(first.status == 201)
        expectCORS(first, "sign-up")
        let taken = try sandbox.send(method: "POST", path: "/users.json", body: signUp,
                                     contentType: "application/x-www-form-urlencoded", token: token, headers: origin)
        #expect(taken.status == 422 && taken.body.contains("has already been taken"))
        expectCORS(taken, "the 422")

        for (method, path, tokenGiven, body, status) in [
            ("GET", "/chat/Dialog.json", nil, nil, 401),                      // no token
            ("GET", "/chat/Dialog.json", "f" + String(repeating: "0", count: 39), nil, 401),   // unknown token
            ("GET", "/chat/Dialog.json", token, nil, 422),                    // an application session
            ("GET", "/no/such/route.json", token, nil, 404),
            ("HEAD", "/users.json", token, nil, 405),
            ("PATCH", "/users.json", token, "{}", 405),
            ("POST", "/users.json", token, "{not json", 400),
        ] as [(String, String, String?, String?, Int)] {
            let r = try sandbox.send(method: method, path: path, body: body, contentType: body.map { _ in "application/json" },
                                     token: tokenGiven, headers: origin)
            #expect(r.status == status, "\(method) \(path): \(r.body)")
            expectCORS(r, "\(method) \(path) \(status)")
        }
        // Without an Origin (curl, chatctl) the answer is the same: caches need not tell them apart.
        let plain = try sandbox.send(method: "GET", path: "/chat/Dialog.json")
        #expect(plain.headers["access-control-allow-origin"] == "*" && plain.headers["vary"] == nil)
    }

    @Test func aRestrictedSandboxEchoesANamedOriginAndRefusesOthers() throws {
        let sandbox = try restSandbox(["--cors-origin", "http://localhost:3000", "--cors-origin", "HTTP://127.0.0.1:8080"])
        #expect(try sandbox.waitForLog(containing: "cors: web pages from").contains("http://127.0.0.1:8080 http://localhost:3000"))
        for origin in ["http://localhost:3000", "http://127.0.0.1:8080"] {
            let r = try sandbox.send(method: "OPTIONS", path: "/users.json", headers: preflightHeaders(origin: origin, method: "POST"))
            #expect(r.status == 204)
            #expect(r.headers["access-control-allow-origin"] == origin)
            #expect(r.headers["vary"] == "Origin")
            #expect(r.headers["access-control-allow-headers"]?.contains("QB-Token") == true)
        }
        for origin in ["http://localhost:3001", "https://localhost:3000", "null", "http://evil.example"] {
            let r = try sandbox.send(method: "OPTIONS", path: "/users.json", headers: preflightHeaders(origin: origin, method: "POST"))
            #expect(r.status == 403, "\(origin)")
            #expect(r.headers["access-control-allow-origin"] == nil && r.headers["access-control-allow-methods"] == nil)
            #expect(r.body == #"{"errors":["Origin \#(origin) is not allowed (chatctl-sandbox --cors-origin)"]}"#)
        }
        // Another origin's request is served (the browser keeps the answer from its page) without the headers.
        let other = try sandbox.send(method: "GET", path: "/chat/Dialog.json", headers: [("Origin", "http://evil.example")])
        #expect(other.status == 401)
        #expect(other.headers["access-control-allow-origin"] == nil && other.headers["vary"] == "Origin")
        let mine = try sandbox.send(method: "GET", path: "/chat/Dialog.json", headers: [("Origin", "http://localhost:3000")])
        #expect(mine.headers["access-control-allow-origin"] == "http://localhost:3000")
        #expect(mine.headers["access-control-expose-headers"] == "QB-Token-ExpirationDate")
        // An OPTIONS without an Origin is no browser's: it learns the lists.
        let bare = try sandbox.send(method: "OPTIONS", path: "/users.json")
        #expect(bare.status == 204 && bare.headers["access-control-allow-origin"] == nil)
        #expect(bare.headers["access-control-allow-methods"] == "GET, POST, PUT, DELETE")
        // Refusals are logged (the log is read as it comes: wait for the line).
        try sandbox.waitForLog(containing: "preflight refused: Origin http://evil.example is not allowed")
    }

    @Test(arguments: ["http://localhost:3000/", "localhost:3000", "http://localhost:3000/app", "http://a:99999", ""])
    func aCORSOriginThatIsNoOriginIsAUsageError(value: String) throws {
        let run = try runProcess(productPath("chatctl-sandbox"), ["--no-chat", "--cors-origin", "null", "--cors-origin", value], timeout: 20)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        let line = run.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.contains("--cors-origin expects an origin such as http://localhost:3000"), "\(run.stderr)")
        #expect(line.contains("'\(value)'"))
    }
}

@Suite struct CORSStorageProcessTests {
    @Test func theRedirectAndTheStorageCarryTheHeadersForUploadsAndDownloads() throws {
        let s = try BlobSandbox()
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token, name: "notes.txt", contentType: "text/plain")
        let file = try s.makeFile("notes.txt", size: 1000)
        let base = blob.params.components(separatedBy: "?")[0]

        // A preflight of the upload (the JS SDK adds QB-Token when the storage is not S3).
        let preflight = try s.curl(["-X", "OPTIONS", "-H", "Origin: http://localhost:3000", "-H", "Access-Control-Request-Method: POST",
                                    "-H", "Access-Control-Request-Headers: qb-token", base])
        #expect(preflight.status == 204 && preflight.body.isEmpty)
        #expect(preflight.headers["access-control-allow-origin"] == "*")
        #expect(preflight.headers["access-control-allow-methods"] == "GET, HEAD, POST")
        #expect(preflight.headers["access-control-allow-headers"]?.contains("QB-Token") == true)
        #expect(preflight.headers["access-control-max-age"] == "600")

        let upload = try s.upload(blob.params, file: file, headers: ["Origin: http://localhost:3000"])
        #expect(upload.status == 201)
        #expect(upload.headers["access-control-allow-origin"] == "*", "a page reads the 201 only with it")
        // A refused upload (the policy altered) says why, readably.
        let forged = try s.upload(blob.params, file: file, headers: ["Origin: null"]) { fields in
            fields.map { $0.0 == "content_type" ? ($0.0, "text/html") : $0 }
        }
        #expect(forged.status == 403 && forged.body.contains("AccessDenied"))
        #expect(forged.headers["access-control-allow-origin"] == "*")

        #expect(try s.complete(blob, size: 1000, token: alice.token).status == 200)
        let redirect = try s.sandbox.send(method: "GET", path: "/blobs/\(blob.uid).json", query: "token=\(alice.token)",
                                          headers: [("Origin", "http://localhost:3000")])
        #expect(redirect.status == 301)
        #expect(redirect.headers["access-control-allow-origin"] == "*", "fetch follows a 301 only with it")
        let location = try #require(redirect.headers["location"])

        // After a redirect to another origin a browser sends Origin: null.
        let storagePreflight = try s.curl(["-X", "OPTIONS", "-H", "Origin: null", "-H", "Access-Control-Request-Method: GET",
                                           "-H", "Access-Control-Request-Headers: range,qb-token", location])
        #expect(storagePreflight.status == 204)
        #expect(storagePreflight.headers["access-control-allow-headers"]?.contains("Range") == true)
        let whole = try s.get(location, headers: ["Origin: null"])
        #expect(whole.status == 200 && whole.headers["content-length"] == "1000")
        #expect(whole.headers["access-control-allow-origin"] == "*")
        let part = try s.get(location, range: "bytes=0-9", headers: ["Origin: null"])
        #expect(part.status == 206 && part.headers["content-range"] == "bytes 0-9/1000")
        #expect(part.headers["access-control-expose-headers"]?.contains("Content-Range") == true)
        let unsatisfiable = try s.get(location, range: "bytes=5000-", headers: ["Origin: null"])
        #expect(unsatisfiable.status == 416 && unsatisfiable.headers["access-control-allow-origin"] == "*")
        let altered = try s.get(location + "0", headers: ["Origin: null"])
        #expect(altered.status == 403 && altered.headers["access-control-allow-origin"] == "*")
        let elsewhere = try s.curl(["-X", "PUT", "--data", "x", "-H", "Origin: null", base])
        #expect(elsewhere.status == 405 && elsewhere.headers["access-control-allow-origin"] == "*")
    }

    @Test func restrictedTheStorageTakesTheNamedOriginAndARedirectsNullOnly() throws {
        let s = try BlobSandbox(["--cors-origin", "http://localhost:3000"])
        let alice = try s.user("alice")
        let blob = try s.newBlob(token: alice.token, name: "notes.txt", contentType: "text/plain")
        let file = try s.makeFile("notes.txt", size: 100)
        let base = blob.params.components(separatedBy: "?")[0]

        let mine = try s.upload(blob.params, file: file, headers: ["Origin: http://localhost:3000"])
        #expect(mine.status == 201)
        #expect(mine.headers["access-control-allow-origin"] == "http://localhost:3000" && mine.headers["vary"] == "Origin")
        let refused = try s.curl(["-X", "OPTIONS", "-H", "Origin: http://evil.example", "-H", "Access-Control-Request-Method: POST", base])
        #expect(refused.status == 403)
        #expect(refused.body.contains("<Code>AccessForbidden</Code>"))
        #expect(refused.headers["access-control-allow-origin"] == nil)
        let theirs = try s.upload(blob.params, file: file, headers: ["Origin: http://evil.example"])
        #expect(theirs.headers["access-control-allow-origin"] == nil && theirs.headers["vary"] == "Origin")

        #expect(try s.complete(blob, size: 100, token: alice.token).status == 200)
        let location = try s.location(blob.uid, token: alice.token)
        let followed = try s.get(location, headers: ["Origin: null"])
        #expect(followed.status == 200 && followed.headers["access-control-allow-origin"] == "null")
        // The API itself does not take null: a page from a file is not among the named.
        let fromFile = try s.sandbox.send(method: "OPTIONS", path: "/blobs.json", headers: preflightHeaders(origin: "null", method: "POST"))
        #expect(fromFile.status == 403)
    }
}

@Suite struct CORSWebSocketProcessTests {
    @Test func aRestrictedSandboxTakesWebSocketsOnlyFromTheNamedOrigins() throws {
        let sandbox = try SandboxProcess(arguments: ["--ws-port", "0", "--cors-origin", "http://localhost:3000"])
        let url = try #require((sandbox.config["endpoints"] as? [String: Any])?["chatWebSocket"] as? String)
        let port = try #require(Int(url.split(separator: ":").last ?? ""))
        let refused = try WebSocketTestClient(port: port, origin: "http://evil.example")
        #expect(refused.status == 403)
        try sandbox.waitForLog(containing: "origin http://evil.example is not allowed (--cors-origin)")
        #expect(try WebSocketTestClient(port: port, origin: "null").status == 403)
        #expect(try WebSocketTestClient(port: port, origin: "http://localhost:3000").status == 101)
        #expect(try WebSocketTestClient(port: port, origin: nil).status == 101, "a client that is no browser sends no Origin")
    }

    @Test func byDefaultAnyOriginMayOpenAWebSocket() throws {
        let sandbox = try SandboxProcess(arguments: ["--ws-port", "0"])
        let url = try #require((sandbox.config["endpoints"] as? [String: Any])?["chatWebSocket"] as? String)
        let port = try #require(Int(url.split(separator: ":").last ?? ""))
        for origin in ["http://evil.example", "null", "file://"] {
            #expect(try WebSocketTestClient(port: port, origin: origin).status == 101)
        }
    }
}
