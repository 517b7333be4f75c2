/// The input at the bottom of the chat view: text as grapheme clusters (so no
/// edit ever splits a character), a cursor, readline's kill keys, and a history of
/// what was sent. A value, like the rest of the model.
package struct LineEditor: Hashable, Sendable {
    package private(set) var characters: [Character] = []
    /// 0...characters.count
    package private(set) var cursor = 0
    package private(set) var history: [String] = []
    /// While browsing history: the entry shown, and what was typed before.
    private var historyIndex: Int?
    private var draft: [Character] = []
    /// How many sent texts are remembered.
    static let historyLimit = 100

    package init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// `text` with the cursor before its `cursor`-th character (a draft kept; kept within the text).
    package init(_ text: String, cursor: Int) {
        self.init(text)
        self.cursor = max(0, min(characters.count, cursor))
    }

    package var text: String { String(characters) }
    package var isEmpty: Bool { characters.isEmpty }
    package var isMultiline: Bool { characters.contains("\n") }

    // MARK: editing

    /// Empties the text (the history stays): a reply or an edit given up, an edit's text put in.
    package mutating func clear() {
        characters = []
        cursor = 0
        historyIndex = nil
    }

    /// Inserts typed or pasted text at the cursor; control characters are dropped
    /// (a tab becomes a space), newlines are kept (a paste of several lines is one message).
    package mutating func insert(_ text: String) {
        var clean: [Character] = []
        for character in text {
            if character == "\r\n" || character == "\r" || character == "\n" { clean.append("\n"); continue }
            if character == "\t" { clean.append(" "); continue }
            if let ascii = character.asciiValue, ascii < 0x20 || ascii == 0x7F { continue }
            if character.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) { continue }
            clean.append(character)
        }
        guard !clean.isEmpty else { return }
        characters.insert(contentsOf: clean, at: cursor)
        cursor += clean.count
        historyIndex = nil
    }

    package mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    package mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    package mutating func moveLeft() { cursor = max(0, cursor - 1) }
    package mutating func moveRight() { cursor = min(characters.count, cursor + 1) }

    /// Start of the current line (Home, ^A).
    package mutating func moveToLineStart() { cursor = lineStart(of: cursor) }
    /// End of the current line (End, ^E).
    package mutating func moveToLineEnd() { cursor = lineEnd(of: cursor) }

    package mutating func moveWordLeft() {
        while cursor > 0 && characters[cursor - 1].isWhitespace { cursor -= 1 }
        while cursor > 0 && !characters[cursor - 1].isWhitespace { cursor -= 1 }
    }

    package mutating func moveWordRight() {
        while cursor < characters.count && characters[cursor].isWhitespace { cursor += 1 }
        while cursor < characters.count && !characters[cursor].isWhitespace { cursor += 1 }
    }

    /// ^W: the word before the cursor, and the blanks after it.
    package mutating func deleteWordBackward() {
        let end = cursor
        moveWordLeft()
        characters.removeSubrange(cursor..<end)
    }

    /// ^U: from the start of the current line to the cursor.
    package mutating func deleteToLineStart() {
        let start = lineStart(of: cursor)
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// ^K: from the cursor to the end of the current line.
    package mutating func deleteToLineEnd() {
        characters.removeSubrange(cursor..<lineEnd(of: cursor))
    }

    /// Up in a text of several lines: the same column a line higher. False on the first line.
    package mutating func moveUp() -> Bool {
        let start = lineStart(of: cursor)
        guard start > 0 else { return false }
        let column = cursor - start
        let previousStart = lineStart(of: start - 1)
        cursor = min(previousStart + column, start - 1)
        return true
    }

    /// Down in a text of several lines. False on the last line.
    package mutating func moveDown() -> Bool {
        let end = lineEnd(of: cursor)
        guard end < characters.count else { return false }
        let column = cursor - lineStart(of: cursor)
        cursor = min(end + 1 + column, lineEnd(of: end + 1))
        return true
    }

    private func lineStart(of index: Int) -> Int {
        var i = index
        while i > 0 && characters[i - 1] != "\n" { i -= 1 }
        return i
    }

    private func lineEnd(of index: Int) -> Int {
        var i = index
        while i < characters.count && characters[i] != "\n" { i += 1 }
        return i
    }

    // MARK: history

    /// The text to send (nil when only blanks), remembered in the history; the editor empties.
    package mutating func submit() -> String? {
        let text = self.text
        characters.removeAll()
        cursor = 0
        historyIndex = nil
        guard text.contains(where: { !$0.isWhitespace }) else { return nil }
        if history.last != text { history.append(text) }
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        return text
    }

    /// The entry before the one shown (Up on the first line).
    package mutating func historyBack() {
        guard !history.isEmpty else { return }
        let index: Int
        if let shown = historyIndex {
            guard shown > 0 else { return }
            index = shown - 1
        } else {
            draft = characters
            index = history.count - 1
        }
        historyIndex = index
        characters = Array(history[index])
        cursor = characters.count
    }

    /// The entry after the one shown, or what was being typed (Down on the last line).
    package mutating func historyForward() {
        guard let shown = historyIndex else { return }
        if shown + 1 < history.count {
            historyIndex = shown + 1
            characters = Array(history[shown + 1])
        } else {
            historyIndex = nil
            characters = draft
        }
        cursor = characters.count
    }

    // MARK: layout

    /// The text as rows at most `width` columns wide (broken at any glyph, so the
    /// cursor maps to one place) and the cursor's row and column among them.
    package func rows(width: Int, unicode: Bool) -> (rows: [GlyphLine], cursorRow: Int, cursorColumn: Int) {
        let width = max(2, width)
        var rows: [GlyphLine] = []
        var current: [Glyph] = []
        var used = 0
        var cursorRow = 0, cursorColumn = 0
        func endRow() {
            rows.append(GlyphLine(current))
            current.removeAll()
            used = 0
        }
        for (index, character) in characters.enumerated() {
            if character == "\n" {
                if index == cursor { (cursorRow, cursorColumn) = (rows.count, used) }
                endRow()
                continue
            }
            for (part, glyph) in Glyph.split(character, unicode: unicode).enumerated() {
                if used + glyph.width > width { endRow() }
                if index == cursor && part == 0 { (cursorRow, cursorColumn) = (rows.count, used) }
                current.append(glyph)
                used += glyph.width
            }
        }
        // The cursor after the last character needs a column of its own.
        if cursor == characters.count {
            if used >= width { endRow() }
            (cursorRow, cursorColumn) = (rows.count, used)
        }
        rows.append(GlyphLine(current))
        return (rows, cursorRow, cursorColumn)
    }
}
