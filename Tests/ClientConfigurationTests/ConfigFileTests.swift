import Diagnostics
import Testing
@testable import ClientConfiguration
import QuickBloxAPI
import XMPPTransport

/// docs/protocol.md §1: a config with an accountKey and no endpoints has them looked up.
@Suite struct ConfigFileTests {
    static let withoutEndpoints: [String: JSONValue] = [
        "appId": .int(7), "authKey": .string("k"), "authSecret": .string("s"), "accountKey": .string("acct"),
    ]

    func file(_ object: [String: JSONValue]) -> ConfigFile { ConfigFile(path: "/etc/chatctl/config.json", root: .object(object)) }

    @Test func aConfigWithEndpointsAsksNothing() throws {
        var object = Self.withoutEndpoints
        object["endpoints"] = .object(["api": .string("https://api.example.com"), "chat": .string("xmpps://chat.example.com:5223")])
        #expect(try file(object).endpointLookup() == nil)
        #expect(try file(object).config().apiEndpoint == "https://api.example.com")
    }

    @Test func anAccountKeyAloneAsksTheHostedServiceByDefault() throws {
        let lookup = try #require(try file(Self.withoutEndpoints).endpointLookup())
        #expect(lookup.directory == "https://api.quickblox.com")
        #expect(lookup.accountKey == "acct")
        #expect(lookup.applicationId == 7)
    }

    @Test func accountSettingsAPISaysWhereToAsk() throws {
        var object = Self.withoutEndpoints
        object["accountSettingsAPI"] = .string("http://127.0.0.1:8080/")
        object["caFile"] = .string("ca.pem")
        let lookup = try #require(try file(object).endpointLookup())
        #expect(lookup.directory == "http://127.0.0.1:8080")
        #expect(lookup.caFile == "/etc/chatctl/ca.pem")
        object["accountSettingsAPI"] = .string("http://directory.example.com")
        #expect(throws: Failure.self) { try file(object).endpointLookup() }
    }

    @Test func theRestOfTheConfigIsCheckedBeforeAnythingIsAsked() {
        var object = Self.withoutEndpoints
        object["authKey"] = .int(3)
        #expect(throws: Failure.self) { try file(object).endpointLookup() }
    }

    @Test func neitherEndpointsNorAnAccountKeyIsAMissingKey() {
        var object = Self.withoutEndpoints
        object["accountKey"] = nil
        #expect((try? file(object).endpointLookup()) == nil)
        #expect { try file(object).config() } throws: { ($0 as? Failure)?.message.contains("key \"endpoints\" is missing") == true }
    }

    @Test func lookedUpEndpointsFillTheConfig() throws {
        let found = try #require(LookedUpEndpoints(apiEndpoint: "api.example.com", chatEndpoint: "chat.example.com"))
        let config = try file(Self.withoutEndpoints).config(lookedUp: found)
        #expect(config.apiEndpoint == "https://api.example.com")
        #expect(config.chatEndpoint == ChatEndpoint(security: .directTLS, host: "chat.example.com", port: 5223))
        #expect(config.chatDomain == "chat.example.com")
    }

    /// The service names bare hosts, the sandbox URLs.
    @Test(arguments: [
        ("https://api.example.com/", "chat.example.com", "https://api.example.com", "xmpps://chat.example.com:5223"),
        ("api.example.com", "chat.example.com:5222", "https://api.example.com", "xmpp://chat.example.com:5222"),
        ("api.example.com", "chat.example.com:5290", "https://api.example.com", "xmpps://chat.example.com:5290"),
        ("http://127.0.0.1:4000", "xmpp://127.0.0.1:4001", "http://127.0.0.1:4000", "xmpp://127.0.0.1:4001"),
    ])
    func bothFormsAreTaken(api: String, chat: String, expectedAPI: String, expectedChat: String) throws {
        let found = try #require(LookedUpEndpoints(apiEndpoint: api, chatEndpoint: chat))
        #expect(found.api == expectedAPI)
        #expect(found.chat == expectedChat)
    }

    @Test(arguments: [(String?.none, String?.some("chat.example.com")), ("api.example.com", nil), ("", "c"),
                      ("ftp://api.example.com", "chat.example.com"), ("api.example.com", "https://chat.example.com"),
                      ("api example", "chat.example.com")])
    func unusableSettingsAreNoEndpoints(api: String?, chat: String?) {
        #expect(LookedUpEndpoints(apiEndpoint: api, chatEndpoint: chat) == nil)
    }
}
