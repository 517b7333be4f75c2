/// What the cell actions put on the screen (ScreenUpdate+Actions.swift): the row above
/// the input while a reply or an edit is written (`↪ replying to NAME: first line…`),
/// and the list of dialogs a message is forwarded to, in a box over the conversation.
struct MessageActionsRenderer {
    let model: ScreenModel
    let theme: Theme
    let areas: ScreenAreas

    func draw(into grid: inout CellGrid) {
        if let row = areas.bannerRow, let composing = model.composing { banner(composing, row: row, into: &grid) }
        if let forwarding = model.forwarding { picker(forwarding, into: &grid) }
    }

    private func banner(_ composing: Composing, row: Int, into grid: inout CellGrid) {
        let message = composing.message
        let first = firstLine(of: message)
        let text: String
        switch composing {
        case .reply:
            let name = message.outgoing ? "yourself" : (model.names[message.senderID] ?? message.senderName)
            text = (theme.unicode ? "↪ " : "> ") + "replying to \(name): \(first)"
        case .edit:
            text = (theme.unicode ? "✎ " : "* ") + "editing: \(first)"
        }
        let hint = GlyphLine(" Esc cancels", unicode: theme.unicode)
        let room = model.width - 1 - (model.width - hint.width > 40 ? hint.width : 0)
        grid.put(GlyphLine(text, maxWidth: max(1, room), unicode: theme.unicode), row: row, column: 0, style: theme.accent)
        if room < model.width - 1 { grid.put(hint, row: row, column: model.width - hint.width, style: theme.faint) }
    }

    private func firstLine(of message: ShownMessage) -> String {
        if !message.text.isEmpty { return String(message.text.prefix { $0 != "\n" }) }
        if let file = message.attachments.first { return "[\(file.kind.isEmpty ? "file" : file.kind)] \(file.name)" }
        return message.quote?.firstLine ?? ""
    }

    /// A box in the middle of the conversation: `forward to: filter`, then the dialogs.
    private func picker(_ forwarding: Forwarding, into grid: inout CellGrid) {
        let shown = forwarding.picker.shown
        let width = min(areas.width - 2, max(30, areas.width * 2 / 3))
        let listRows = max(1, min(shown.count, areas.bodyHeight - 4))
        let height = listRows + 3
        let left = (areas.width - width) / 2
        let top = areas.bodyTop + max(0, (areas.bodyHeight - height) / 2)
        let inner = width - 4
        for row in top..<top + height { grid.fill(row: row, columns: left..<left + width, style: .plain) }
        grid.put(theme.topLeft, row: top, column: left, style: theme.accent, unicode: theme.unicode)
        grid.fill(row: top, columns: left + 1..<left + width - 1, with: theme.horizontal, style: theme.accent)
        grid.put(theme.topRight, row: top, column: left + width - 1, style: theme.accent, unicode: theme.unicode)
        let bottom = top + height - 1
        grid.put(theme.bottomLeft, row: bottom, column: left, style: theme.accent, unicode: theme.unicode)
        grid.fill(row: bottom, columns: left + 1..<left + width - 1, with: theme.horizontal, style: theme.accent)
        grid.put(theme.bottomRight, row: bottom, column: left + width - 1, style: theme.accent, unicode: theme.unicode)
        for row in top + 1..<bottom {
            grid.put(theme.vertical, row: row, column: left, style: theme.accent, unicode: theme.unicode)
            grid.put(theme.vertical, row: row, column: left + width - 1, style: theme.accent, unicode: theme.unicode)
        }
        let title = GlyphLine("forward to: ", unicode: theme.unicode)
        let after = grid.put(title, row: top + 1, column: left + 2, style: theme.faint)
        let end = grid.put(GlyphLine(forwarding.picker.filter ?? "", maxWidth: max(1, inner - title.width), unicode: theme.unicode),
                           row: top + 1, column: after, style: .plain)
        grid.cursor = (top + 1, min(left + width - 2, end))
        if shown.isEmpty {
            grid.put(GlyphLine("no dialog matches", maxWidth: inner, unicode: theme.unicode), row: top + 2, column: left + 2, style: theme.faint)
            return
        }
        let selected = forwarding.picker.selectedIndex ?? 0
        let first = max(0, min(selected - listRows + 1, shown.count - listRows))
        for (offset, dialog) in shown.dropFirst(max(0, first)).prefix(listRows).enumerated() {
            let y = top + 2 + offset
            grid.put(GlyphLine(dialog.title, maxWidth: inner, unicode: theme.unicode), row: y, column: left + 2, style: .plain)
            if first + offset == selected { grid.restyle(row: y, columns: left + 1..<left + width - 1) { $0.reverse = true } }
        }
    }
}
