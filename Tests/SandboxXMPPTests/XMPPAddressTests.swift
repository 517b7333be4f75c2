import Testing
@testable import SandboxXMPP

@Suite struct XMPPAddressTests {
    @Test(arguments: [
        ("5-7@localhost", 5), ("5-7@LocalHost/phone", 5), ("5-8@localhost", nil), ("5-7@muc.localhost", nil),
        ("x-7@localhost", nil), ("localhost", nil), ("5-7@other", nil),
        ("5--7@localhost", nil), ("-5-7@localhost", nil), ("5-7-7@localhost", nil), ("0-7@localhost", nil), ("5-@localhost", nil),
        ("57@localhost", nil), ("5-7@localhost/a-b", 5),
    ] as [(String, Int?)])
    func userJIDs(text: String, expected: Int?) {
        #expect(XMPPAddress(text)?.userId(applicationId: 7, domain: "localhost") == expected)
    }

    @Test(arguments: [
        ("7_0123456789abcdef01234567@muc.localhost/5", "0123456789abcdef01234567"),
        ("7_abc@MUC.localhost", "abc"), ("8_abc@muc.localhost", nil), ("7_abc@localhost", nil), ("7abc@muc.localhost", nil),
    ] as [(String, String?)])
    func roomJIDs(text: String, expected: String?) {
        #expect(XMPPAddress(text)?.roomDialogId(applicationId: 7, domain: "localhost") == expected)
    }

    @Test func partsAndMalformedText() {
        let address = XMPPAddress("a@b.example/r/s")
        #expect(address?.local == "a" && address?.domain == "b.example" && address?.resource == "r/s" && address?.bare == "a@b.example")
        #expect(XMPPAddress("") == nil && XMPPAddress("@x") == nil && XMPPAddress("a@") == nil)
    }

    /// Split by bytes, not characters: text beyond ASCII (a combining accent right after a
    /// separator too) stays whole on its side, and only a domain with capitals is lowercased.
    @Test func textBeyondASCII() {
        let address = XMPPAddress("j\u{FC}rgen@B\u{DC}CHER.example/\u{301}phone/\u{E9}")
        #expect(address?.local == "j\u{FC}rgen" && address?.domain == "b\u{FC}cher.example" && address?.resource == "\u{301}phone/\u{E9}")
        #expect(XMPPAddress("5-7@muc.localhost")?.domain == "muc.localhost")
    }
}
