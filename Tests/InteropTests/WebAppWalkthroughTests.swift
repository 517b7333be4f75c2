import Foundation
import Testing
import TestSupport

/// A QuickBlox web app as a new user would write one, in a browser nobody here wrote: headless
/// Chromium runs a page served from a loopback port of the test's (its own origin), which uses
/// only fetch, FormData, Web Crypto and WebSocket, plus Strophe.js for chat, against a sandbox
/// restricted to that origin (docs/protocol.md §10). It signs a session, signs up, meets the
/// 422, logs in, lists dialogs, sends over REST, uploads a Blob through `params`, downloads it
/// back through the 301, is refused by a sandbox restricted elsewhere, and chats with a
/// chatctl user, who receives all of it and downloads the file, and answers with one. Once over
/// http:// and ws://, once against `--https`: https:// and wss://, the sandboxes' certificates
/// trusted by the browser's profile, nothing rewritten.
@Suite(.serialized) struct WebAppWalkthroughTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Resources/web-app-walkthrough.html")

    init() throws { try HeadlessChromium.requireInstalled() }

    /// Serves the page and Strophe.js, as a web app's own server would.
    private static func pageServer() throws -> ScriptedHTTPServer {
        let page = try [UInt8](Data(contentsOf: Self.page))
        let strophe = try [UInt8](Data(contentsOf: URL(fileURLWithPath: HeadlessChromium.stropheJS)))
        return try ScriptedHTTPServer { request, connection in
            switch request.target.split(separator: "?").first.map(String.init) {
            case "/walkthrough.html":
                connection.send(ScriptedHTTPServer.response(200, "OK", headers: [("Content-Type", "text/html; charset=utf-8")], body: page))
            case "/strophe.min.js":
                connection.send(ScriptedHTTPServer.response(200, "OK", headers: [("Content-Type", "text/javascript")], body: strophe))
            default:
                connection.send(ScriptedHTTPServer.response(404, "Not Found"))
            }
        }
    }

    @Test(arguments: [false, true])
    func aBrowserAppUsesTheSandboxAndTalksToAChatctlUser(https: Bool) throws {
        let server = try Self.pageServer()
        defer { server.stop() }
        let origin = server.baseURL()
        let tls = https ? ["--https"] : []
        let sandbox = try SandboxProcess(arguments: tls + ["--ws-port", "0", "--cors-origin", origin, "--log-level", "debug"])
        let elsewhere = try SandboxProcess(arguments: tls + ["--no-chat", "--cors-origin", "http://203.0.113.7:8080"])
        let endpoints = try #require(sandbox.config["endpoints"] as? [String: Any])
        let webSocket = try #require(endpoints["chatWebSocket"] as? String)
        #expect(webSocket.hasPrefix(https ? "wss://" : "ws://") && sandbox.apiEndpoint.hasPrefix(https ? "https://" : "http://"))
        // Each sandbox has a certificate of its own: the profile trusts both (the refusal below must be CORS's).
        let trusted = https ? [sandbox, elsewhere].compactMap { $0.config["caFile"] as? String } : []

        let bob = try Peer("bob", config: sandbox.configPath)
        // Two messages over REST and one over chat, all live.
        let listen = try bob.background(["listen", "--count", "3", "--json", "--timeout", "120s"])
        try listen.waitUntilListening()

        let webLogin = "web" + String(Int.random(in: 100_000...999_999))
        var url = try #require(URLComponents(string: origin + "/walkthrough.html"))
        url.queryItems = [
            URLQueryItem(name: "api", value: sandbox.apiEndpoint), URLQueryItem(name: "ws", value: webSocket),
            URLQueryItem(name: "app", value: String(sandbox.applicationId)), URLQueryItem(name: "key", value: sandbox.authKey),
            URLQueryItem(name: "secret", value: sandbox.authSecret),
            URLQueryItem(name: "domain", value: sandbox.config["chatDomain"] as? String ?? "localhost"),
            URLQueryItem(name: "login", value: webLogin), URLQueryItem(name: "password", value: "web-walk-123"),
            URLQueryItem(name: "peer", value: String(bob.id)), URLQueryItem(name: "deny", value: elsewhere.apiEndpoint),
        ]
        let browser = try HeadlessChromium(url: url.string!, trusting: trusted)
        defer { browser.stop() }
        let said = { browser.console(prefix: "WALK ").joined(separator: "\n") }
        let sent = try browser.waitForConsole("the page to reach chat", prefix: "WALK ", timeout: 60) {
            $0.hasPrefix("WALK ok chat-sent") || $0.hasPrefix("WALK failed")
        }
        try #require(sent.hasPrefix("WALK ok chat-sent"), "the page said:\n\(said())\nsandbox:\n\(sandbox.stderr)")

        // Every step, in order, each with what it saw.
        let steps = browser.console(prefix: "WALK ok ").map { $0.split(separator: " ").dropFirst(2) }
        #expect(steps.compactMap(\.first) == ["session", "signup", "taken", "login", "dialog", "dialogs", "rest-message", "blob",
                                              "upload", "complete", "attachment-message", "download", "download-with-header",
                                              "refused", "too-large", "chat", "chat-sent"], "\(said())")
        func detail(_ step: Substring) -> String { steps.first { $0.first == step }?.dropFirst().joined(separator: " ") ?? "" }
        #expect(detail("session").hasPrefix("expires "), "QB-Token-ExpirationDate was readable")
        #expect(detail("taken") == "422 has already been taken")
        #expect(detail("upload") == "201")
        #expect(detail("download").hasPrefix(https ? "https://127.0.0.1:" : "http://127.0.0.1:") && detail("download").contains("/files/"),
                "it followed the 301 to the storage")
        #expect(detail("download-with-header").hasPrefix("bytes 0-5/"))
        #expect(detail("refused") == "TypeError")
        #expect(detail("too-large") == "413", "libevent's own refusal was readable")
        let webId = try #require(Int(detail("login")))
        let blobUID = detail("blob")
        // The browser's preflights reached the sandbox (and were not answered by anything else).
        for path in ["/session.json", "/users.json", "/login.json", "/chat/Dialog.json", "/chat/Message.json", "/blobs.json"] {
            #expect((try? sandbox.waitForLog(containing: "OPTIONS \(path) -> 204", timeout: 5)) != nil, "no preflight of \(path)")
        }
        try elsewhere.waitForLog(containing: "preflight refused: Origin \(origin) is not allowed", timeout: 5)

        // bob heard both REST messages and the chat message, from the web user.
        let heard = listen.finish(timeout: 30)
        #expect(heard.status == 0, "listen: \(heard.stderr)")
        let messages = heard.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(messages.map { $0["message"] as? String } == ["hello over REST from a browser", "[attachment]", "hello over chat from a browser"])
        #expect(messages.allSatisfy { $0["sender_id"] as? Int == webId })
        let attachment = try #require((messages.dropFirst().first?["attachments"] as? [[String: Any]])?.first)
        #expect(attachment["id"] as? String == blobUID && attachment["name"] as? String == "from-the-browser.txt")

        // ... and his answer, with a file, reaches the page over its WebSocket; the page downloads the file.
        let directory = try TemporaryDirectory(prefix: "walkthrough")
        try "a file from chatctl\n".write(toFile: directory.file("reply.txt"), atomically: true, encoding: .utf8)
        let reply = try bob.run(["send", "@" + webLogin, "--attach", directory.file("reply.txt"), "hello back from chatctl"])
        #expect(reply.status == 0, "send: \(reply.stderr)")
        let finished = try? browser.waitForConsole("the page to receive the reply", prefix: "WALK ", timeout: 30) {
            $0 == "WALK done" || $0.hasPrefix("WALK failed")
        }
        #expect(finished == "WALK done", "\(said())")
        #expect(browser.console(prefix: "WALK received") == ["WALK received hello back from chatctl"])
        #expect(browser.console(prefix: "WALK got-file") == ["WALK got-file reply.txt a file from chatctl"])
        #expect(sandbox.stderr.range(of: #"GET /blobs/[0-9a-f]+ -> 301"#, options: .regularExpression) != nil,
                "the file came by its privateUrl, without .json")

        // The file the browser uploaded is the one chatctl downloads.
        let messageId = try #require(messages.dropFirst().first?["_id"] as? String)
        let download = try bob.run(["download", messageId, "-o", directory.path])
        #expect(download.status == 0, "download: \(download.stderr)")
        #expect(try String(contentsOfFile: directory.file("from-the-browser.txt"), encoding: .utf8)
                == "a file made in a browser, \(webLogin)\n")
    }
}
