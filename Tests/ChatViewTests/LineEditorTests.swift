import Testing
@testable import ChatView

@Suite struct LineEditorTests {
    @Test func editsNeverSplitACharacter() {
        var editor = LineEditor()
        editor.insert("a👨‍👩‍👧é中")
        editor.backspace()
        #expect(editor.text == "a👨‍👩‍👧é")
        editor.moveLeft()
        editor.backspace()
        #expect(editor.text == "aé", "the whole family goes in one backspace")
        editor.moveToLineEnd()
        editor.moveLeft()
        editor.deleteForward()
        #expect(editor.text == "a")
    }

    @Test func controlCharactersAreDroppedAndTabsBecomeSpaces() {
        var editor = LineEditor()
        editor.insert("a\u{1B}[31mb\tc\u{7}\u{9B}d")
        #expect(editor.text == "a[31mb cd")
    }

    @Test func killKeysWorkOnTheCurrentLine() {
        var editor = LineEditor("first line\nsecond line here")
        editor.deleteWordBackward()
        #expect(editor.text == "first line\nsecond line ")
        editor.deleteToLineStart()
        #expect(editor.text == "first line\n")
        editor.insert("x y")
        editor.moveToLineStart()
        editor.deleteToLineEnd()
        #expect(editor.text == "first line\n")
    }

    @Test func upAndDownMoveBetweenLinesThenThroughHistory() {
        var editor = LineEditor()
        editor.insert("one")
        _ = editor.submit()
        editor.insert("two")
        _ = editor.submit()
        editor.insert("draft")
        editor.historyBack()
        #expect(editor.text == "two")
        editor.historyBack()
        #expect(editor.text == "one")
        editor.historyBack()
        #expect(editor.text == "one", "the oldest stays")
        editor.historyForward()
        editor.historyForward()
        #expect(editor.text == "draft", "past the newest: what was being typed")

        var lines = LineEditor("abc\nde")
        let up = lines.moveUp()
        #expect(up && lines.cursor == 2, "column 2 of the first line")
        let upAgain = lines.moveUp()
        #expect(!upAgain)
        let down = lines.moveDown()
        #expect(down && lines.cursor == 6)
    }

    @Test func wordMovesSkipBlanks() {
        var editor = LineEditor("hello  big world")
        editor.moveWordLeft()
        #expect(editor.cursor == 11)
        editor.moveWordLeft()
        editor.moveWordLeft()
        #expect(editor.cursor == 0)
        editor.moveWordRight()
        #expect(editor.cursor == 5)
    }

    @Test func blankInputSubmitsNothing() {
        var editor = LineEditor(" \n ")
        #expect(editor.submit() == nil)
        #expect(editor.history.isEmpty)
    }

    @Test func rowsPlaceTheCursorAfterWideGlyphs() {
        let editor = LineEditor("中文中文中")
        let laid = editor.rows(width: 4, unicode: true)
        #expect(laid.rows.map(\.width) == [4, 4, 2])
        #expect(laid.cursorRow == 2 && laid.cursorColumn == 2)
    }
}
