import Foundation
import Testing
import TestSupport

/// docs/protocol.md §1 end to end: a config with an account key and no
/// endpoints finds the sandbox through `GET /account_settings.json`.
@Suite struct AccountSettingsEndToEndTests {
    /// The sandbox's own config without `endpoints`; `accountSettingsAPI` says
    /// where to ask (the hosted service's address is the default).
    static func configWithoutEndpoints(of sandbox: SandboxProcess, accountKey: String? = nil, in directory: TemporaryDirectory) throws -> String {
        var config = sandbox.config
        config["endpoints"] = nil
        config["accountSettingsAPI"] = sandbox.apiEndpoint
        if let accountKey { config["accountKey"] = accountKey }
        let path = directory.file("config.json")
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theEndpointsAreLookedUpOnceAndCached() throws {
        let sandbox = try SandboxProcess()
        let directory = try TemporaryDirectory()
        let cli = try ChatctlRunner(configPath: try Self.configWithoutEndpoints(of: sandbox, in: directory))
        let login = uniqueLogin()
        let first = try cli.login(login, password: "lookup-pass-1", extra: ["--json", "--verbose"])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(jsonObject(first.stdout)?["chat"] as? String == "connected", "chat found through the looked-up endpoint")
        #expect(first.stderr.contains("> GET \(sandbox.apiEndpoint)/account_settings.json"))
        #expect(!first.stderr.contains("sandbox-account-key"), "the account key is not shown")

        let status = try cli.run(["status", "--json", "--verbose"])
        #expect(status.status == 0, "stderr: \(status.stderr)")
        let endpoints = try #require(jsonObject(status.stdout)?["endpoints"] as? [String: String])
        #expect(endpoints == ["api": sandbox.apiEndpoint, "chat": sandbox.chatEndpoint])
        #expect(!status.stderr.contains("account_settings"), "asked once: the state directory keeps the answer")
        let cached = try FileManager.default.contentsOfDirectory(atPath: cli.stateDir.path + "/state").filter { $0.hasPrefix("endpoints-") }
        #expect(cached.count == 1)
    }

    @Test func aWrongAccountKeyIsOneLineAndExit1() throws {
        let sandbox = try SandboxProcess()
        let directory = try TemporaryDirectory()
        let cli = try ChatctlRunner(configPath: try Self.configWithoutEndpoints(of: sandbox, accountKey: "not-the-key", in: directory))
        let result = try cli.login(uniqueLogin(), password: "lookup-pass-2")
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr == "chatctl: look up the endpoints: The resource wasn't found (404 from GET \(sandbox.apiEndpoint)/account_settings.json) (check accountKey in the config, or give \"endpoints\")\n")
    }
}
