import Testing
import XMPPTransport

/// `ChatJID(parsing:)` splits on the bytes of `/` and `@`: the same parts
/// as splitting by Character gave, for every shape a JID comes in.
@Suite struct ChatJIDParsingTests {
    @Test(arguments: [
        ("1001-77@chat.quickblox.com/res1", "1001-77", "chat.quickblox.com", "res1"),
        ("1001-77@chat.quickblox.com", "1001-77", "chat.quickblox.com", nil),
        ("chat.quickblox.com", nil, "chat.quickblox.com", nil),
        ("chat.quickblox.com/r", nil, "chat.quickblox.com", "r"),
        ("77_5f00aa@muc.c/1003", "77_5f00aa", "muc.c", "1003"),
        ("a@b/c/d@e", "a", "b", "c/d@e"),
        ("é@ü.example/中 😀", "é", "ü.example", "中 😀"),
    ] as [(String, String?, String, String?)])
    func splitsIntoItsParts(text: String, node: String?, domain: String, resource: String?) throws {
        let jid = try #require(ChatJID(parsing: text))
        #expect(jid.node == node && jid.domain == domain && jid.resource == resource)
        #expect(jid.description == text)
    }

    @Test(arguments: ["", "@b", "a@", "a@/r", "a@b/", "/r", "a/"])
    func emptyPartsAreRefused(_ text: String) {
        #expect(ChatJID(parsing: text) == nil)
    }

    @Test func aUserJIDGivesItsUserID() {
        #expect(ChatJID(parsing: "1001-77@c/r")?.userID == 1001)
        #expect(ChatJID(parsing: "x-77@c")?.userID == nil)
        #expect(ChatJID(parsing: "c")?.userID == nil)
    }
}
