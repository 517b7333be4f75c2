import Foundation
import Testing
import TestSupport

/// Blocking both ways between QuickBlox's JavaScript SDK (in headless Chromium) and chatctl,
/// through the sandbox (docs/protocol.md §7, "Privacy lists"): a block written with
/// `QB.chat.privacylist` stops `chatctl send` with exit 5 (and is the SDK user's list, not the
/// chatctl user's); a block written by `chatctl block` is what the SDK's `getNames` and `getList`
/// read, and the SDK user's message to the chatctl user bounces and never reaches them.
@Suite(.serialized) struct SDKBlockingTests {
    init() throws { try HeadlessChromium.requireInstalled() }

    /// The page in `mode`, as the SDK user, until it is done or failed; its `BLOCK ` lines.
    static func runPage(_ mode: String, peer: Int, sandbox: SandboxProcess, sdkUser: SDKSuiteTests.SuiteUser,
                        caFile: String) throws -> [String] {
        let config = try SDKSuiteTests.configScript(sandbox, users: [sdkUser, sdkUser])
        let server = try SDKSuiteTests.pageServer(config: config, page: "quickblox-sdk-blocking.html")
        defer { server.stop() }
        var url = try #require(URLComponents(string: server.baseURL() + "/runner.html"))
        url.queryItems = [URLQueryItem(name: "mode", value: mode), URLQueryItem(name: "peer", value: String(peer))]
        let api = try #require(URLComponents(string: sandbox.apiEndpoint))
        let browser = try HeadlessChromium(url: try #require(url.string), trusting: [caFile],
                                           arguments: ["--host-resolver-rules=MAP api.quickblox.com \(api.host ?? ""):\(api.port ?? 0)"])
        defer { browser.stop() }
        let end = try? browser.waitForConsole("the page to finish \(mode)", prefix: "BLOCK ", timeout: 60) {
            $0 == "BLOCK done" || $0.hasPrefix("BLOCK failed")
        }
        let said = browser.console(prefix: "BLOCK ")
        try #require(end == "BLOCK done", "the page said:\n\(said.joined(separator: "\n"))\nsandbox:\n\(sandbox.stderr.suffix(3000))")
        return said
    }

    @Test func anSDKUsersBlockStopsChatctlsSend() throws {
        let sandbox = try SandboxProcess(arguments: ["--https", "--ws-port", "0"])
        let caFile = try #require(sandbox.config["caFile"] as? String)
        let n = Int.random(in: 100...999)
        let sdkUser = try SDKSuiteTests.makeUser(n, on: sandbox, caFile: caFile)
        let bob = try Peer("bob", config: sandbox.configPath)
        #expect(try bob.run(["send", "@" + sdkUser.login, "before the block"]).status == 0)

        let said = try Self.runPage("block", peer: bob.id, sandbox: sandbox, sdkUser: sdkUser, caFile: caFile)
        #expect(said.contains("BLOCK ok blocked \(bob.id)"))

        let refused = try bob.run(["send", "@" + sdkUser.login, "after the block"])
        #expect(refused.status == 5, "stderr: \(refused.stderr)")
        #expect(refused.stderr == "chatctl: SDK User \(n) has blocked you; the message was not sent\n")
        #expect(try bob.run(["outbox", "--json"]).stdout == "[]\n", "not queued")
        let listed = try bob.run(["blocked", "--json"])
        #expect(listed.status == 0 && listed.stdout == "[]\n", "the SDK user's list is not bob's: \(listed.stdout) \(listed.stderr)")
    }

    @Test func chatctlsBlockIsWhatTheSDKReadsAndStopsItsMessage() throws {
        let sandbox = try SandboxProcess(arguments: ["--https", "--ws-port", "0"])
        let caFile = try #require(sandbox.config["caFile"] as? String)
        let sdkUser = try SDKSuiteTests.makeUser(Int.random(in: 100...999), on: sandbox, caFile: caFile)
        let bob = try Peer("bob", config: sandbox.configPath)
        #expect(try bob.run(["send", "@" + sdkUser.login, "hello"]).status == 0)
        let blocked = try bob.run(["block", "@" + sdkUser.login])
        #expect(blocked.status == 0, "stderr: \(blocked.stderr)")

        // The SDK user's own lists are untouched: to see bob's, the page logs in as bob.
        let asBob = SDKSuiteTests.SuiteUser(id: bob.id, login: bob.login, password: bob.password, email: "")
        let said = try Self.runPage("read", peer: sdkUser.id, sandbox: sandbox, sdkUser: asBob, caFile: caFile)
        #expect(said.contains("BLOCK ok names default=public lists=public"), "\(said)")
        #expect(said.contains("BLOCK ok list public \(sdkUser.id):deny"), "the SDK reads chatctl's pair of rules as one user: \(said)")

        // Now the SDK user writes to bob, who blocks them: it bounces, and bob never gets it.
        let back = try Self.runPage("send", peer: bob.id, sandbox: sandbox, sdkUser: sdkUser, caFile: caFile)
        let sent = try #require(back.first { $0.hasPrefix("BLOCK ok sent ") }).dropFirst("BLOCK ok sent ".count)
        #expect(back.contains { $0.hasPrefix("BLOCK bounced \(sent) ") }, "the SDK was told its message bounced: \(back)")
        let history = try bob.run(["history", "@" + sdkUser.login, "--json"])
        let texts = ((try? JSONSerialization.jsonObject(with: Data(history.stdout.utf8))) as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(texts == ["hello"], "\(history.stderr)")
    }
}
