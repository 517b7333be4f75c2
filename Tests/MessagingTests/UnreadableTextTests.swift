import Testing
@testable import Messaging

/// Input that is not text is found where it stops being text: what `send` refuses.
@Suite struct UnreadableTextTests {
    @Test(arguments: [
        ("hello\nworld\n", nil),
        ("héllo, 世界 👋\n", nil),
        ("", nil),
    ] as [(String, UnreadableText?)])
    func textIsText(text: String, found: UnreadableText?) {
        #expect(UnreadableText.find(in: Array(text.utf8)) == found)
    }

    @Test func aNulIsFoundByByteAndLine() {
        #expect(UnreadableText.find(in: [0, 0, 0]) == UnreadableText(reason: .nul, byte: 1, line: 1))
        #expect(UnreadableText.find(in: Array("ab\nc".utf8) + [0]) == UnreadableText(reason: .nul, byte: 5, line: 2))
        #expect(UnreadableText.find(in: [0], bytesBefore: 10, linesBefore: 3) == UnreadableText(reason: .nul, byte: 11, line: 4))
    }

    /// A stray continuation byte, a lead byte cut short, an overlong form, a surrogate: not UTF-8.
    @Test(arguments: [
        [0x61, 0x80] as [UInt8], [0x61, 0xC3], [0x61, 0xC0, 0xAF], [0x61, 0xED, 0xA0, 0x80], [0x61, 0xFF],
    ])
    func bytesThatAreNotUTF8AreFoundAtTheirStart(bytes: [UInt8]) {
        #expect(UnreadableText.find(in: bytes) == UnreadableText(reason: .notUTF8, byte: 2, line: 1))
    }

    @Test func thePlaceIsSaidInWords() {
        #expect(UnreadableText(reason: .nul, byte: 1, line: 1).place == "a NUL byte at byte 1, line 1")
        #expect(UnreadableText(reason: .notUTF8, byte: 9, line: 2).place == "a byte that is not UTF-8 at byte 9, line 2")
    }
}
