/// Draws the visible rows of the conversation's message blocks (see `MessageBlock`).
struct ConversationRenderer {
    let model: ScreenModel
    let conversation: Conversation
    let theme: Theme
    let areas: ScreenAreas

    func draw(into grid: inout CellGrid) {
        let context = LayoutContext(profile: model.profile, clock: model.clock, now: model.now,
                                    selection: conversation.selection, previews: model.previews,
                                    settings: model.settings, avatars: model.avatars, names: model.names)
        let viewport = ConversationViewport(conversation, width: areas.bodyWidth, height: areas.bodyHeight, context: context)
        if conversation.entries.isEmpty {
            let text = conversation.loaded ? "no messages yet: say hello" : "loading" + theme.ellipsis
            let line = GlyphLine(text, unicode: theme.unicode)
            grid.put(line, row: areas.bodyTop + areas.bodyHeight / 2, column: max(0, (areas.width - line.width) / 2), style: theme.faint)
            return
        }
        if viewport.showsTop && conversation.loadingOlder && viewport.emptyRows > 0 {
            let line = GlyphLine("loading older messages" + theme.ellipsis, unicode: theme.unicode)
            grid.put(line, row: areas.bodyTop, column: max(0, (areas.width - line.width) / 2), style: theme.faint)
        }
        for slice in viewport.slices {
            for offset in 0..<slice.rowCount {
                let row = slice.block.rows[slice.firstRow + offset]
                draw(row, of: slice, rowIndex: slice.firstRow + offset, at: areas.bodyTop + slice.screenRow + offset, into: &grid)
            }
        }
    }

    private func draw(_ row: MessageBlock.Row, of slice: ConversationViewport.Slice, rowIndex: Int, at y: Int,
                      into grid: inout CellGrid) {
        let block = slice.block
        let message = block.message
        let width = areas.bodyWidth
        let x = block.boxColumn(width: width)
        let isGroup = conversation.dialog.kind != .private
        var border = message.outgoing ? theme.outgoingBorder : theme.incomingBorder
        if block.selected { border.reverse = true }
        if let avatar = block.avatar, rowIndex >= block.avatarRow, rowIndex < block.avatarRow + AvatarBadge.rows {
            draw(avatar, row: rowIndex - block.avatarRow, at: y, into: &grid)
        }
        switch row {
        case .daySeparator(let text):
            let line = GlyphLine("\(theme.horizontal)\(theme.horizontal) \(text) \(theme.horizontal)\(theme.horizontal)", unicode: theme.unicode)
            grid.put(line, row: y, column: max(0, (width - line.width) / 2), style: theme.faint)
        case .sender(let name):
            let shown = model.names[message.senderID] ?? name
            grid.put(GlyphLine(shown, maxWidth: max(1, width - 2), unicode: theme.unicode), row: y, column: x,
                     style: theme.sender(message.senderID, group: isGroup))
        case .top:
            edge(theme.topLeft, theme.topRight, block: block, x: x, y: y, style: border, into: &grid)
        case .bottom:
            edge(theme.bottomLeft, theme.bottomRight, block: block, x: x, y: y, style: border, into: &grid)
        case .text(let line):
            inside(line, style: .plain, block: block, x: x, y: y, border: border, into: &grid)
            for span in block.links[rowIndex] ?? [] {
                let start = x + 2 + span.columns.lowerBound, end = min(x + 2 + span.columns.upperBound, x + 2 + block.inner, grid.width)
                guard start < end else { continue }
                for column in start..<end { grid[y, column].style.underline = true }
                grid.links.append(LinkPlacement(row: y, columns: start..<end, url: span.url))
            }
        case .attachment(let line):
            inside(line, style: theme.attachment, block: block, x: x, y: y, border: border, into: &grid)
        case .progress(_, let transfer):
            let (line, style) = progress(transfer, width: block.inner)
            inside(line, style: style, block: block, x: x, y: y, border: border, into: &grid)
        case .savedAs(let index):
            let place = message.attachments[index].localPath ?? ""
            inside(GlyphLine("saved as \(place)", maxWidth: block.inner, unicode: theme.unicode), style: theme.faint, block: block,
                   x: x, y: y, border: border, into: &grid)
        case .noPreview(let line), .quote(let line):
            inside(line, style: theme.faint, block: block, x: x, y: y, border: border, into: &grid)
        case .image(_, let imageRow, let preview):
            inside(GlyphLine(), style: .plain, block: block, x: x, y: y, border: border, into: &grid)
            switch preview {
            case .cells(let rows, let box):
                guard imageRow < rows.count else { return }
                for (column, cell) in rows[imageRow].prefix(min(box.columns, block.inner)).enumerated() {
                    grid[y, x + 2 + column] = cell
                }
            case .escape(let payload, let box):
                // Drawn by the terminal over blank cells, and only when all of it is on the screen.
                let wholeBlock = slice.rowCount == block.height || (rowIndex - imageRow >= slice.firstRow
                    && rowIndex - imageRow + box.rows <= slice.firstRow + slice.rowCount)
                if imageRow == 0 && wholeBlock {
                    grid.images.append(ImagePlacement(row: y, column: x + 2, box: box, payload: payload))
                }
            case .unavailable:
                break
            }
        case .footer:
            footer(block: block, x: x, y: y, into: &grid)
        case .compact(let line):
            draw(line, of: block, at: y, isGroup: isGroup, into: &grid)
        }
    }

    private func edge(_ left: String, _ right: String, block: MessageBlock, x: Int, y: Int, style: CellStyle, into grid: inout CellGrid) {
        grid.put(left, row: y, column: x, style: style, unicode: theme.unicode)
        grid.fill(row: y, columns: x + 1..<x + block.outerWidth - 1, with: theme.horizontal, style: style)
        grid.put(right, row: y, column: x + block.outerWidth - 1, style: style, unicode: theme.unicode)
    }

    private func inside(_ line: GlyphLine, style: CellStyle, block: MessageBlock, x: Int, y: Int, border: CellStyle,
                        into grid: inout CellGrid) {
        grid.put(theme.vertical, row: y, column: x, style: border, unicode: theme.unicode)
        grid.put(line, row: y, column: x + 2, style: style, limit: x + 2 + block.inner)
        grid.put(theme.vertical, row: y, column: x + block.outerWidth - 1, style: border, unicode: theme.unicode)
    }

    /// `██████░░░░  72 %` (full once done), or why it failed.
    func progress(_ transfer: Transfer, width: Int) -> (GlyphLine, CellStyle) {
        let unicode = theme.unicode
        if case .failed(let reason) = transfer.outcome {
            return (GlyphLine("failed: \(reason)", maxWidth: width, unicode: unicode), theme.error)
        }
        guard let percent = transfer.percent else {
            let verb = transfer.direction == .upload ? "uploading" : "downloading"
            return (GlyphLine("\(verb) \(ByteCount.format(Int(transfer.done)))", maxWidth: width, unicode: unicode), theme.faint)
        }
        let label = percent < 10 ? "   \(percent) %" : percent < 100 ? "  \(percent) %" : " \(percent) %"
        let barWidth = max(1, width - label.count)
        let filled = barWidth * percent / 100
        let bar = String(repeating: theme.barFull, count: filled) + String(repeating: theme.barEmpty, count: barWidth - filled)
        return (GlyphLine(bar + label, unicode: unicode), theme.accent)
    }

    private func footer(block: MessageBlock, x: Int, y: Int, into grid: inout CellGrid) {
        let message = block.message
        let time = [model.settings.timeLabels ? model.clock.time(message.dateSent, as: model.settings.timeFormat) : "",
                    message.edited ? "(edited)" : ""].filter { !$0.isEmpty }.joined(separator: " ")
        if !message.outgoing {
            grid.put(time, row: y, column: x, style: theme.time, unicode: theme.unicode)
            return
        }
        let (state, style) = theme.delivery(message.delivery)
        let stateLine = GlyphLine(state, maxWidth: max(1, areas.bodyWidth / 2), unicode: theme.unicode)
        let right = x + block.outerWidth - 1
        let timeLine = GlyphLine(time.isEmpty ? "" : time + " ", unicode: theme.unicode)
        let start = max(0, right - stateLine.width - timeLine.width + 1)
        let after = grid.put(timeLine, row: y, column: start, style: theme.time)
        grid.put(stateLine, row: y, column: after, style: style)
    }
}
