import Foundation
import Testing
import TestSupport

/// A web chat client the project did not write: Strophe.js (what QuickBlox's web SDK builds
/// on) in headless Chromium, over the sandbox's XMPP-over-WebSocket port (RFC 7395),
/// chatting with a chatctl user on the STARTTLS port through the same sandbox.
@Suite(.serialized) struct StropheWebSocketTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources/strophe-chat.html")

    init() throws { try HeadlessChromium.requireInstalled() }

    @Test func aWebClientAndChatctlChatBothWays() throws {
        let sandbox = try SandboxProcess(arguments: ["--ws-port", "0"])
        let webSocket = try #require((sandbox.config["endpoints"] as? [String: Any])?["chatWebSocket"] as? String)
        let bob = try Peer("bob", config: sandbox.configPath)
        // The web user signs up over REST; its session token is its chat password, as the web SDK does it.
        let webLogin = "web" + String(Int.random(in: 100_000...999_999)), webPassword = "web-pass-123"
        let webId = try signUpUser(on: sandbox, login: webLogin, password: webPassword)
        let token = try sandbox.createSession(login: webLogin, password: webPassword)
        let app = sandbox.applicationId

        let listen = try bob.background(["listen", "--count", "1", "--json", "--timeout", "60s"])
        try listen.waitUntilListening()

        var url = URLComponents(url: Self.page, resolvingAgainstBaseURL: false)!
        url.queryItems = [
            URLQueryItem(name: "ws", value: webSocket),
            URLQueryItem(name: "jid", value: "\(webId)-\(app)@localhost"),
            URLQueryItem(name: "password", value: token),
            URLQueryItem(name: "to", value: "\(bob.id)-\(app)@localhost"),
            URLQueryItem(name: "text", value: "hello from strophe"),
        ]
        let browser = try HeadlessChromium(url: url.string!)
        defer { browser.stop() }
        let sent = try browser.waitForConsole("Strophe.js to connect and send", prefix: "STROPHE ", timeout: 30) {
            $0 == "STROPHE sent" || $0.hasPrefix("STROPHE failed")
        }
        try #require(sent == "STROPHE sent", "the page said: \(browser.log)\nsandbox: \(sandbox.stderr)")

        // The web client's message reaches chatctl listen ...
        let heard = listen.finish(timeout: 30)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        let message = try #require(jsonLine(heard.stdout), "listen printed: \(heard.stdout)")
        #expect(message["message"] as? String == "hello from strophe")
        #expect(message["sender_id"] as? Int == webId)

        // ... and chatctl's answer reaches the web client.
        let reply = try bob.run(["send", "@" + webLogin, "hello back from chatctl"])
        #expect(reply.status == 0, "stderr: \(reply.stderr)")
        let received = try? browser.waitForConsole("the page to receive the reply", prefix: "STROPHE ", timeout: 20) {
            $0 == "STROPHE received hello back from chatctl"
        }
        #expect(received != nil, "the page said: \(browser.log)")
    }

    private func jsonLine(_ text: String) -> [String: Any]? {
        guard let line = text.split(separator: "\n").first else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}
