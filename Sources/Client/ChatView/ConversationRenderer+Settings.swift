/// What the config's `chatView` section adds to the drawing of a conversation:
/// avatars beside incoming cells, and the compact layout's lines.
extension ConversationRenderer {
    /// Row `row` of an avatar's square, at the left margin.
    func draw(_ avatar: AvatarBadge, row: Int, at y: Int, into grid: inout CellGrid) {
        let x = 1
        switch avatar {
        case .initials(let letters, let userID):
            let style = theme.badge(userID)
            grid.fill(row: y, columns: x..<x + AvatarBadge.columns, style: style)
            guard row == 0 else { return }
            let line = GlyphLine(letters, maxWidth: AvatarBadge.columns, unicode: theme.unicode)
            grid.put(line, row: y, column: x + (AvatarBadge.columns - line.width) / 2, style: style)
        case .image(let preview):
            guard case .cells(let rows, _) = preview, row < rows.count else { return }
            for (column, cell) in rows[row].prefix(AvatarBadge.columns).enumerated() { grid[y, x + column] = cell }
        }
    }

    /// A line of the compact layout: its spans one after the other from the left margin.
    func draw(_ line: CompactLine, of block: MessageBlock, at y: Int, isGroup: Bool, into grid: inout CellGrid) {
        let message = block.message
        var x = 1 + line.indent
        for span in line.spans {
            var style: CellStyle
            switch span.kind {
            case .time: style = theme.time
            case .name: style = message.outgoing ? CellStyle(foreground: theme.outgoingBorder.foreground, bold: true)
                                             : theme.sender(message.senderID, group: isGroup)
            case .text: style = .plain
            case .attachment: style = theme.attachment
            case .state: style = theme.delivery(message.delivery).1
            case .faint: style = theme.faint
            }
            if block.selected { style.reverse = true }
            let start = x
            x = grid.put(span.line, row: y, column: x, style: style, limit: areas.bodyWidth - 1)
            for link in span.links {
                let columns = start + link.columns.lowerBound..<min(start + link.columns.upperBound, x)
                guard !columns.isEmpty else { continue }
                for column in columns { grid[y, column].style.underline = true }
                grid.links.append(LinkPlacement(row: y, columns: columns, url: link.url))
            }
        }
    }
}
