import Diagnostics
import Testing
@testable import ClientConfiguration
import QuickBloxAPI
import XMPPTransport

@Suite struct ClientConfigTests {
    static let good: [String: JSONValue] = [
        "appId": .int(7), "authKey": .string("k"), "authSecret": .string("s"), "accountKey": .string("a"),
        "endpoints": .object(["api": .string("https://api.example.com/"), "chat": .string("xmpps://chat.example.com:5223")]),
    ]

    func parse(_ object: [String: JSONValue]) throws(Failure) -> ClientConfig {
        try ClientConfig.parse(.object(object), path: "/etc/chatctl/config.json")
    }

    @Test func fullConfigParses() throws {
        let config = try parse(Self.good)
        #expect(config.credentials.applicationId == 7)
        #expect(config.apiEndpoint == "https://api.example.com")
        #expect(config.chatEndpoint == ChatEndpoint(security: .directTLS, host: "chat.example.com", port: 5223))
        #expect(config.chatDomain == "chat.example.com")
        #expect(config.chatJID(userId: 42) == "42-7@chat.example.com")
        #expect(config.chatAuth == .token)
        #expect(!config.allowsPlaintextChat)
    }

    @Test(arguments: [
        ("appId", JSONValue?.none, "key \"appId\" is missing"),
        ("appId", .string("x"), "key \"appId\" must be a positive integer"),
        ("authSecret", nil, "key \"authSecret\" is missing"),
        ("authKey", .int(3), "key \"authKey\" must be a non-empty string"),
        ("endpoints", nil, "key \"endpoints\" is missing"),
        ("endpoints", .object(["api": .string("https://a")]), "key \"endpoints.chat\" is missing"),
        ("endpoints", .object(["api": .string("ftp://a"), "chat": .string("xmpp://c:1")]), "key \"endpoints.api\" must be"),
        ("endpoints", .object(["api": .string("https://a"), "chat": .string("https://c")]), "key \"endpoints.chat\" must be"),
        ("signature", .string("md5"), "key \"signature\" must be"),
    ])
    func errorsNameTheFileAndTheKey(key: String, value: JSONValue?, expected: String) {
        var object = Self.good
        object[key] = value
        #expect {
            _ = try parse(object)
        } throws: { error in
            guard let error = error as? Failure else { return false }
            return error.message.contains("/etc/chatctl/config.json")
                && error.message.contains(expected)
        }
    }

    @Test func plainHTTPToARemoteHostNeedsExplicitConsent() throws {
        var object = Self.good
        object["endpoints"] = .object(["api": .string("http://api.example.com"), "chat": .string("xmpp://c.example.com:5222")])
        #expect(throws: Failure.self) { _ = try parse(object) }
        object["allowInsecureTransport"] = .bool(true)
        #expect(try parse(object).allowsPlaintextChat)
    }

    @Test func loopbackMayBePlain() throws {
        var object = Self.good
        object["endpoints"] = .object(["api": .string("http://127.0.0.1:8080"), "chat": .string("xmpp://127.0.0.1:5222")])
        let config = try parse(object)
        #expect(config.allowsPlaintextChat)
    }

    @Test func relativeCAFileIsRelativeToTheConfig() throws {
        var object = Self.good
        object["caFile"] = .string("ca.pem")
        #expect(try parse(object).caFile == "/etc/chatctl/ca.pem")
    }

    @Test func twoConfigsNeverShareASessionKey() throws {
        var other = Self.good
        other["endpoints"] = .object(["api": .string("https://api2.example.com"), "chat": .string("xmpps://chat.example.com:5223")])
        #expect(try parse(Self.good).sessionKey != parse(other).sessionKey)
        #expect(try parse(Self.good).sessionKey == parse(Self.good).sessionKey)
    }

    @Test func resolutionOrder() {
        let env = ["CHATCTL_CONFIG": "/env.json", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"]
        #expect(ClientConfig.resolvePath(explicit: "/flag.json", environment: env) == "/flag.json")
        #expect(ClientConfig.resolvePath(explicit: nil, environment: env) == "/env.json")
        #expect(ClientConfig.resolvePath(explicit: nil, environment: ["XDG_CONFIG_HOME": "/xdg"]) == "/xdg/chatctl/config.json")
        #expect(ClientConfig.resolvePath(explicit: nil, environment: ["HOME": "/home/u"]) == "/home/u/.config/chatctl/config.json")
    }
}
