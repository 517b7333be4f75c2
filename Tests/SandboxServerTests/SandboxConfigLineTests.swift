// The full sandbox (REST + chat): its config line and its clean shutdown.
import Foundation
import Testing
import TestSupport

@Suite struct SandboxConfigLineTests {
    @Test func configLineIsACompleteChatctlConfig() throws {
        let sandbox = try SandboxProcess(arguments: ["--chat-domain", "sandbox.test", "--app-id", "42"])
        let config = sandbox.config
        #expect(Set(config.keys) == ["appId", "authKey", "authSecret", "accountKey", "endpoints", "chatDomain", "caFile"])
        #expect(config["appId"] as? Int == 42)
        #expect(config["chatDomain"] as? String == "sandbox.test")
        for key in ["authKey", "authSecret", "accountKey"] { #expect(!((config[key] as? String) ?? "").isEmpty) }
        let endpoints = try #require(config["endpoints"] as? [String: Any])
        let api = try #require(endpoints["api"] as? String)
        let chat = try #require(endpoints["chat"] as? String)
        #expect(api.range(of: #"^http://127\.0\.0\.1:[1-9][0-9]*$"#, options: .regularExpression) != nil)
        #expect(chat.range(of: #"^xmpp://127\.0\.0\.1:[1-9][0-9]*$"#, options: .regularExpression) != nil)
        #expect(api != chat.replacingOccurrences(of: "xmpp://", with: "http://"))
        #expect(!sandbox.configLine.contains("\n"))
        // The REST side answers on the advertised port.
        #expect(try !sandbox.createSession().isEmpty)
    }

    @Test func caFileIsPrivateAndRemovedOnSIGTERM() throws {
        let sandbox = try SandboxProcess()
        let caFile = try #require(sandbox.config["caFile"] as? String)
        let attributes = try FileManager.default.attributesOfItem(atPath: caFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let pem = try String(contentsOfFile: caFile, encoding: .utf8)
        #expect(pem.contains("-----BEGIN CERTIFICATE-----"))
        let directory = (caFile as NSString).deletingLastPathComponent
        #expect(sandbox.stop() == 0)
        #expect(sandbox.process.terminationReason == .exit)
        #expect(!FileManager.default.fileExists(atPath: caFile))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }
}
