import Testing
import XMPPTransport

@Suite("ChatEndpoint parsing")
struct ChatEndpointTests {
    struct Good: Sendable, CustomTestStringConvertible {
        var text: String, security: ChatEndpoint.Security, host: String, port: Int, description: String
        var testDescription: String { text }
    }

    static let good: [Good] = [
        Good(text: "xmpp://chat.quickblox.com:5222", security: .startTLS, host: "chat.quickblox.com", port: 5222, description: "xmpp://chat.quickblox.com:5222"),
        Good(text: "xmpps://chat.quickblox.com:5223", security: .directTLS, host: "chat.quickblox.com", port: 5223, description: "xmpps://chat.quickblox.com:5223"),
        Good(text: "xmpp://chat.example.com", security: .startTLS, host: "chat.example.com", port: 5222, description: "xmpp://chat.example.com:5222"),
        Good(text: "xmpps://chat.example.com", security: .directTLS, host: "chat.example.com", port: 5223, description: "xmpps://chat.example.com:5223"),
        Good(text: "XMPPS://Chat.Example.com:443/", security: .directTLS, host: "Chat.Example.com", port: 443, description: "xmpps://Chat.Example.com:443"),
        Good(text: "xmpp://127.0.0.1:40000", security: .startTLS, host: "127.0.0.1", port: 40000, description: "xmpp://127.0.0.1:40000"),
        Good(text: "xmpp://[::1]:5222", security: .startTLS, host: "::1", port: 5222, description: "xmpp://[::1]:5222"),
        Good(text: "xmpps://[2001:db8::7]", security: .directTLS, host: "2001:db8::7", port: 5223, description: "xmpps://[2001:db8::7]:5223"),
        Good(text: "  xmpp://localhost:1  ", security: .startTLS, host: "localhost", port: 1, description: "xmpp://localhost:1"),
    ]

    @Test(arguments: good)
    func parsesGood(_ c: Good) throws {
        let e = try #require(ChatEndpoint(parsing: c.text))
        #expect(e.security == c.security)
        #expect(e.host == c.host)
        #expect(e.port == c.port)
        #expect(e.description == c.description)
        // The description is itself parseable to the same endpoint.
        #expect(ChatEndpoint(parsing: e.description) == e)
    }

    @Test(arguments: [
        "", "chat.quickblox.com:5222", "http://chat.quickblox.com:5222", "xmpp:chat.quickblox.com",
        "xmpp://", "xmpp://:5222", "xmpp://host:", "xmpp://host:0", "xmpp://host:65536", "xmpp://host:-1",
        "xmpp://host:52a2", "xmpp://host:5222/path", "xmpp://user@host:5222", "xmpp://host:5222?x=1",
        "xmpp://::1:5222", "xmpp://[::1", "xmpp://[::1]5222", "xmpp://[host]:5222", "xmpp://ho st:5222",
        "xmpp://host:5222:1", "xmpps://host:123456",
    ])
    func rejectsBad(_ text: String) {
        #expect(ChatEndpoint(parsing: text) == nil)
    }

    @Test(arguments: [
        ("xmpp://127.0.0.1:1", true), ("xmpp://127.1.2.3", true), ("xmpp://localhost", true),
        ("xmpp://LOCALHOST.", true), ("xmpp://[::1]", true), ("xmpp://[0:0:0:0:0:0:0:1]", true),
        ("xmpp://[::0:1]", true),
        ("xmpp://128.0.0.1", false), ("xmpp://10.0.0.1", false), ("xmpp://chat.quickblox.com", false),
        ("xmpp://[::2]", false), ("xmpp://[::]", false), ("xmpp://127.0.0.1.example.com", false),
        ("xmpp://localhost.evil.com", false), ("xmpp://[1::1]", false),
    ])
    func loopback(_ text: String, _ expected: Bool) throws {
        let e = try #require(ChatEndpoint(parsing: text))
        #expect(e.isLoopback == expected)
    }
}
