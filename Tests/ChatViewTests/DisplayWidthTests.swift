#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ChatView

@Suite struct DisplayWidthTests {
    /// The table is glibc's wcwidth, which ncursesw draws with: they must agree on every scalar.
    @Test func theTableAgreesWithTheCLibraryOnEveryScalar() throws {
        // Glibc's module map leaves wcwidth out (it wants _XOPEN_SOURCE): found by name instead.
        typealias WCWidth = @convention(c) (wchar_t) -> Int32
        let wcwidth = unsafeBitCast(try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth")), to: WCWidth.self)
        // This thread only: other tests run beside this one.
        let locale = try #require(newlocale(1 << LC_CTYPE, "C.UTF-8", nil))
        let previous = uselocale(locale)
        defer { uselocale(previous); freelocale(locale) }
        var disagreements: [String] = []
        for value in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(value) {
            let scalar = Unicode.Scalar(value)!
            let expected = Int(wcwidth(wchar_t(value)))
            if DisplayWidth.of(scalar) != expected { disagreements.append("U+\(String(value, radix: 16)): \(expected)") }
        }
        #expect(disagreements.isEmpty, "regenerate with scripts/width-table.py: \(disagreements.prefix(10))")
    }

    @Test(arguments: [
        ("hello", 5), ("中文字", 6), ("ｱｲ", 2), ("한국어", 6),
        ("😀", 2), ("e\u{301}", 1), ("\u{301}", 1),
        ("🇫🇷", 2), ("👍🏽", 2), ("❤️", 1),
        // A ZWJ family is drawn as its people side by side: every terminal agrees on that.
        ("👨‍👩‍👧", 6),
    ])
    func widths(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test func sequencesTerminalsDisagreeAboutAreMadePlain() {
        #expect(Glyph.split("👨‍👩‍👧", unicode: true).map(\.text) == ["👨", "👩", "👧"])
        #expect(Glyph.split("👍🏽", unicode: true) == [Glyph("👍", width: 2)])
        #expect(Glyph.split("❤️", unicode: true) == [Glyph("❤", width: 1)])
        #expect(Glyph.split("🇫🇷", unicode: true) == [Glyph("🇫🇷", width: 2)])
        #expect(Glyph.split("e\u{301}", unicode: true) == [Glyph("e\u{301}", width: 1)])
        #expect(Glyph.split("\u{E000}", unicode: true) == [Glyph("\u{E000}", width: 1)])
        // Unassigned: the replacement character, one column, as drawn.
        #expect(Glyph.split("\u{0378}", unicode: true) == [Glyph("\u{FFFD}", width: 1)])
    }

    @Test func withoutUnicodeEverythingBeyondASCIIIsAQuestionMark() {
        #expect(DisplayWidth.of("日本 ok", unicode: false) == 5)
        #expect(GlyphLine("日本 ok", unicode: false).glyphs.map(\.text).joined() == "?? ok")
    }

    @Test func wrappingBreaksAfterSpacesAndInsideLongWords() {
        let lines = GlyphLine.wrap("the quick brown fox jumps", width: 10, unicode: true)
        #expect(lines.map { $0.glyphs.map(\.text).joined() } == ["the quick", "brown fox", "jumps"])
        let long = GlyphLine.wrap("abcdefghijklmnop", width: 6, unicode: true)
        #expect(long.map { $0.glyphs.map(\.text).joined() } == ["abcdef", "ghijkl", "mnop"])
        let cjk = GlyphLine.wrap("中文中文中文", width: 5, unicode: true)
        #expect(cjk.map(\.width) == [4, 4, 4], "a wide glyph never straddles the edge")
        let lines2 = GlyphLine.wrap("one\n\ntwo", width: 10, unicode: true)
        #expect(lines2.map { $0.glyphs.map(\.text).joined() } == ["one", "", "two"])
    }

    @Test func truncationEndsWithAnEllipsis() {
        #expect(GlyphLine("abcdefgh", maxWidth: 5, unicode: true).glyphs.map(\.text).joined() == "abcd…")
        #expect(GlyphLine("中文中文", maxWidth: 4, unicode: true).glyphs.map(\.text).joined() == "中…")
    }

    @Test func aGridOverwritingHalfAWideGlyphBlanksTheOtherHalf() {
        var grid = CellGrid(width: 6, height: 1)
        grid.put("中文", row: 0, column: 0, style: .plain, unicode: true)
        #expect(grid.text(row: 0) == "中文  ")
        grid.put("x", row: 0, column: 1, style: .plain, unicode: true)
        #expect(grid.text(row: 0) == " x文  ")
        grid.put("中", row: 0, column: 5, style: .plain, unicode: true)
        #expect(grid.text(row: 0) == " x文  ", "a wide glyph that does not fit is left out")
    }
}
