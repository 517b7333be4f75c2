/// Model + size → a grid of styled cells. Pure: it reads the model alone (image
/// previews too, drawn by the edge and kept in it), so the same model always draws
/// the same screen; golden text snapshots test it.
package struct ScreenRenderer {
    package init() {}

    package func render(_ model: ScreenModel) -> CellGrid {
        var grid = CellGrid(width: model.width, height: model.height)
        grid.title = Self.title(model)
        let theme = Theme(profile: model.profile, colors: model.settings.colors)
        if model.isTooSmall {
            tooSmall(model, into: &grid, theme: theme)
            return grid
        }
        let areas = ScreenAreas(model)
        statusLine(model, into: &grid, theme: theme)
        grid.fill(row: 1, columns: 0..<model.width, with: theme.horizontal, style: theme.rule)
        switch model.screen {
        case .dialogs:
            DialogListRenderer(model: model, theme: theme, areas: areas).draw(into: &grid)
        case .conversation:
            if let conversation = model.conversation {
                ConversationRenderer(model: model, conversation: conversation, theme: theme, areas: areas).draw(into: &grid)
            }
            bottomRule(model, into: &grid, theme: theme, row: areas.bottomRuleRow)
            input(model, into: &grid, theme: theme, areas: areas)
            MessageActionsRenderer(model: model, theme: theme, areas: areas).draw(into: &grid)
        }
        for (offset, line) in areas.noticeRows.enumerated() {
            grid.fill(row: areas.noticeTop + offset, columns: 0..<model.width, style: theme.notice)
            grid.put(line, row: areas.noticeTop + offset, column: 1, style: theme.notice)
        }
        if let help = model.help { HelpRenderer(help: help, theme: theme).draw(into: &grid) }
        if model.help != nil || model.forwarding != nil {
            // Under an overlay: no picture the terminal paints over it, no link written again
            // over its text (a click on the help must not open another user's link).
            grid.images = []
            grid.links = []
            if model.help != nil { grid.cursor = nil }
        }
        return grid
    }

    /// `(3) bob · chatctl`: the open dialog, and how many messages wait unread in the others
    /// (only while notifying: a person who turned notifications off sees no count).
    static func title(_ model: ScreenModel) -> String {
        let open = model.screen == .conversation ? model.conversation?.dialog : nil
        let unread = model.settings.notify ? model.dialogs.all.filter { $0.id != open?.id && !$0.muted }.reduce(0) { $0 + $1.unread } : 0
        return (unread > 0 ? "(\(unread)) " : "") + (open.map { "\($0.title) · " } ?? "") + "chatctl"
    }

    private func tooSmall(_ model: ScreenModel, into grid: inout CellGrid, theme: Theme) {
        let text = "chatctl chat needs at least \(ScreenModel.minimumWidth)x\(ScreenModel.minimumHeight) (this is \(model.width)x\(model.height))"
        let lines = GlyphLine.wrap(text, width: max(1, model.width), unicode: theme.unicode)
        let top = max(0, (model.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            grid.put(line, row: top + offset, column: max(0, (model.width - line.width) / 2), style: .plain)
        }
    }

    // MARK: status line

    private func statusLine(_ model: ScreenModel, into grid: inout CellGrid, theme: Theme) {
        grid.fill(row: 0, columns: 0..<model.width, style: theme.status)
        let narrow = model.width < 60
        var left: String
        switch model.screen {
        case .dialogs:
            left = " chatctl" + (narrow ? "" : "\(theme.dot)\(model.dialogs.all.count) dialog\(model.dialogs.all.count == 1 ? "" : "s")")
        case .conversation:
            let dialog = model.conversation?.dialog
            left = " \(dialog?.title ?? "")" + (narrow ? "" : "\(theme.dot)\(dialog?.kind.rawValue ?? "")")
            if let dialog, model.isBlocked(dialog) { left += theme.dot + "blocked" }
            if let dialog, let presence = model.presenceLabel(of: dialog, dot: theme.dot) { left += theme.dot + presence }
        }
        left += theme.dot + connectionText(model, theme: theme)
        var right = ""
        if model.screen == .conversation {
            let open = model.conversation?.dialog.id
            let elsewhere = model.dialogs.all.filter { $0.id != open }.reduce(0) { $0 + $1.unread }
            if elsewhere > 0 {
                right = (theme.unicode ? "✉ " : "") + "\(elsewhere)" + (narrow ? " " : " unread elsewhere ")
                if !theme.unicode && narrow { right = "\(elsewhere) unread " }
            }
        }
        var rightLine = GlyphLine(right, unicode: theme.unicode)
        let leftLine = GlyphLine(left, maxWidth: max(1, model.width - min(rightLine.width, model.width / 2) - 1), unicode: theme.unicode)
        rightLine.truncate(to: max(0, model.width - leftLine.width - 1), unicode: theme.unicode)
        grid.put(leftLine, row: 0, column: 0, style: theme.status)
        grid.put(rightLine, row: 0, column: model.width - rightLine.width, style: theme.status)
    }

    func connectionText(_ model: ScreenModel, theme: Theme) -> String {
        switch model.connection {
        case .connecting:
            return "connecting" + theme.ellipsis
        case .connected:
            return "connected"
        case .reconnecting(let at):
            let seconds = Int((at - model.now).rounded(.up))
            return seconds > 0 ? "reconnecting in \(seconds)s" : "reconnecting" + theme.ellipsis
        case .offline(let reason, let retryAt):
            var text = "offline"
            if let retryAt {
                let seconds = Int((retryAt - model.now).rounded(.up))
                text += seconds > 0 ? ", retry in \(seconds)s" : ", retrying" + theme.ellipsis
            }
            return reason.isEmpty ? text : text + " (\(reason))"
        }
    }

    // MARK: bottom

    private func bottomRule(_ model: ScreenModel, into grid: inout CellGrid, theme: Theme, row: Int) {
        grid.fill(row: row, columns: 0..<model.width, with: theme.horizontal, style: theme.rule)
        guard let conversation = model.conversation else { return }
        var right = 0
        if conversation.newBelow > 0 {
            let text = GlyphLine(" \(theme.down) \(conversation.newBelow) new ", unicode: theme.unicode)
            right = text.width + 1
            grid.put(text, row: row, column: max(0, model.width - right), style: theme.unread)
        }
        let typing = conversation.typing.filter { $0.value > model.now }.keys.sorted()
        guard !typing.isEmpty else { return }
        let names = typing.map { model.names[$0] ?? "user \($0)" }
        let text: String
        switch names.count {
        case 1: text = "\(names[0]) is typing\(theme.ellipsis)"
        case 2: text = "\(names[0]) and \(names[1]) are typing\(theme.ellipsis)"
        default: text = "\(names.count) people are typing\(theme.ellipsis)"
        }
        let line = GlyphLine(" \(text) ", maxWidth: max(1, model.width - 2 - right), unicode: theme.unicode)
        grid.put(line, row: row, column: 1, style: .plain)
    }

    private func input(_ model: ScreenModel, into grid: inout CellGrid, theme: Theme, areas: ScreenAreas) {
        for (offset, line) in areas.inputRows.enumerated() {
            let row = areas.inputTop + offset
            if offset == 0 { grid.put(">", row: row, column: 0, style: theme.accent, unicode: theme.unicode) }
            grid.put(line, row: row, column: ScreenAreas.promptWidth, style: .plain)
        }
        // The keys that do something now, right of the text while it leaves room (and the input 20 columns).
        if areas.inputRows.count == 1, let text = areas.inputRows.first {
            let room = model.width - 1 - max(20, ScreenAreas.promptWidth + text.width + 2)
            if let hint = KeyHints.line(KeyHints.items(model, unicode: theme.unicode), room: room,
                                        separator: theme.dot, unicode: theme.unicode) {
                grid.put(hint, row: areas.inputTop, column: model.width - 1 - hint.width, style: theme.faint)
            }
        }
        grid.cursor = (areas.inputTop + areas.cursorRow, min(model.width - 1, areas.cursorColumn))
    }
}
