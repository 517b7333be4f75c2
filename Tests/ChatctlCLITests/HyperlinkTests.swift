import Testing
@testable import ChatctlCLI

@Suite struct HyperlinkTests {
    @Test func aLinkIsAnOSC8AroundItsTextWithNothingThatEndsItEarly() {
        #expect(Hyperlink.osc8("see", url: "https://a.example/x?q=1") == "\u{1B}]8;;https://a.example/x?q=1\u{1B}\\see\u{1B}]8;;\u{1B}\\")
        #expect(Hyperlink.encoded("https://a.example/ü;x y\u{1B}") == "https://a.example/%C3%BC%3Bx%20y%1B")
    }
}
