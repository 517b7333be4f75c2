/// The dialogs screen: one row per dialog (name, type, unread, last message, time),
/// the selected one reversed, and the filter or the keys at the bottom.
struct DialogListRenderer {
    let model: ScreenModel
    let theme: Theme
    let areas: ScreenAreas

    func draw(into grid: inout CellGrid) {
        let width = model.width
        let shown = model.dialogs.shown
        let bottom = model.height - 1
        let rows = max(1, bottom - 1 - areas.bodyTop)
        grid.fill(row: bottom - 1, columns: 0..<width, with: theme.horizontal, style: theme.rule)
        if shown.isEmpty {
            let text = model.dialogs.all.isEmpty ? "no dialogs yet: start one with chatctl send @login TEXT" : "no dialog matches"
            let line = GlyphLine(text, maxWidth: width - 2, unicode: theme.unicode)
            grid.put(line, row: areas.bodyTop + rows / 2, column: max(0, (width - line.width) / 2), style: theme.faint)
        }
        let selected = model.dialogs.selectedIndex
        let top = max(0, min(model.dialogs.top, max(0, shown.count - rows), selected ?? 0))
        let narrow = width < 60
        let nameWidth = max(10, width * (narrow ? 35 : 30) / 100)
        let kindWidth = narrow ? 0 : 8, unreadWidth = 5, timeWidth = 7
        let messageWidth = max(1, width - 1 - nameWidth - 1 - kindWidth - unreadWidth - timeWidth - 1)
        for (offset, dialog) in shown.dropFirst(top).prefix(rows).enumerated() {
            let y = areas.bodyTop + offset
            var x = 1
            if let peer = dialog.peerID, model.isOnline(peer) {
                grid.put(theme.onlineMark, row: y, column: 0, style: theme.online, unicode: theme.unicode)
            }
            grid.put(GlyphLine(dialog.title, maxWidth: nameWidth, unicode: theme.unicode), row: y, column: x,
                     style: dialog.unread > 0 ? CellStyle(bold: true) : .plain)
            x += nameWidth + 1
            // A private dialog with someone blocked says so where its type is (narrow: after the name).
            if model.isBlocked(dialog) {
                let mark = GlyphLine("blocked", maxWidth: narrow ? nameWidth : kindWidth, unicode: theme.unicode)
                grid.put(mark, row: y, column: narrow ? x - 1 - mark.width : x, style: theme.error)
            } else if !narrow {
                grid.put(dialog.kind.rawValue, row: y, column: x, style: theme.faint, unicode: theme.unicode)
            }
            x += kindWidth
            if dialog.unread > 0 {
                let count = dialog.unread > 999 ? "999+" : String(dialog.unread)
                grid.put(count, row: y, column: x + unreadWidth - 1 - count.count, style: theme.unread, unicode: theme.unicode)
            }
            x += unreadWidth
            if let draft = model.drafts[dialog.id], !draft.isEmpty {
                // Something typed and left here: said in its place, as chat apps mark a draft.
                let after = grid.put("draft: ", row: y, column: x, style: theme.accent, unicode: theme.unicode, limit: x + messageWidth)
                let first = String(draft.text.prefix { $0 != "\n" })
                grid.put(GlyphLine(first, maxWidth: max(1, x + messageWidth - after), unicode: theme.unicode), row: y, column: after, style: .plain, limit: x + messageWidth)
            } else if let last = dialog.lastMessage {
                grid.put(GlyphLine(last, maxWidth: messageWidth, unicode: theme.unicode), row: y, column: x, style: .plain)
            }
            if let date = dialog.lastMessageDate {
                let text = model.clock.short(date, now: Int(model.now))
                grid.put(text, row: y, column: width - 1 - text.count, style: theme.faint, unicode: theme.unicode)
            }
            if offset + top == selected { grid.restyle(row: y, columns: 0..<width) { $0.reverse = true } }
        }
        if let filter = model.dialogs.filter {
            let after = grid.put("/ ", row: bottom, column: 0, style: theme.accent, unicode: theme.unicode)
            let end = grid.put(GlyphLine(filter, unicode: theme.unicode), row: bottom, column: after, style: .plain)
            if let hint = KeyHints.line(["Enter open", "Esc clear"], room: width - 1 - max(20, end + 2),
                                        separator: theme.dot, unicode: theme.unicode) {
                grid.put(hint, row: bottom, column: width - 1 - hint.width, style: theme.faint)
            }
            grid.cursor = (bottom, min(width - 1, end))
        } else {
            var keys = theme.unicode ? "↑↓ move · Enter open · / filter · q quit" : "up/down move - Enter open - / filter - q quit"
            if narrow { keys = theme.unicode ? "Enter open · / filter · q quit" : "Enter open - / filter - q quit" }
            grid.put(GlyphLine(keys, maxWidth: width - 2, unicode: theme.unicode), row: bottom, column: 1, style: theme.faint)
        }
    }
}
