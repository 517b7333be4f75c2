extension MessageBlock {
    /// The compact layout of `message`: a day separator when the day changes, then its
    /// lines. Attachments show as their label lines, without previews or avatars.
    init(compact message: ShownMessage, previous: ShownMessage?, width: Int, context: LayoutContext) {
        let unicode = context.profile.unicode
        let settings = context.settings
        var rows: [Row] = []
        let day = context.clock.day(message.dateSent)
        if previous.map({ context.clock.day($0.dateSent) != day }) ?? true {
            rows.append(.daySeparator(context.clock.date(message.dateSent, now: Int(context.now))))
        }
        var prefix: [CompactLine.Span] = []
        if settings.timeLabels {
            prefix.append(.init(.time, GlyphLine(context.clock.time(message.dateSent, as: settings.timeFormat) + " ", unicode: unicode)))
        }
        if settings.nameLabels {
            let name = context.names[message.senderID] ?? message.senderName
            prefix.append(.init(.name, GlyphLine("<" + name + ">", maxWidth: max(4, width / 4), unicode: unicode)))
            prefix.append(.init(.text, GlyphLine(" ", unicode: unicode)))
        }
        var hang = prefix.reduce(0) { $0 + $1.line.width }
        // A narrow screen: what wraps starts under the prefix rather than in a sliver beside it.
        if hang > width / 2 { hang = 2 }
        let room = max(4, width - 2 - hang)
        var items: [CompactLine.Span] = []
        // A reply's or a forward's original first, dimmed, as in a cell.
        for line in message.quote.map({ Self.quoteLines($0, maxInner: room, unicode: unicode) }) ?? [] {
            items.append(.init(.faint, line))
        }
        if !message.text.isEmpty {
            let lines = GlyphLine.wrap(message.text, width: room, unicode: unicode)
            let found = LinkFinder.links(in: message.text)
            let spans = found.isEmpty ? Array(repeating: [], count: lines.count) : LinkFinder.spans(of: found, on: lines)
            items += zip(lines, spans).map { .init(.text, $0, links: $1) }
        }
        for (index, attachment) in message.attachments.enumerated() {
            items.append(.init(.attachment, GlyphLine(Self.label(of: attachment, unicode: unicode), maxWidth: room, unicode: unicode)))
            if let note = Self.compactTransfer(attachment, index: index, unicode: unicode) {
                items.append(.init(.faint, GlyphLine(note, maxWidth: room, unicode: unicode)))
            }
        }
        var lines: [CompactLine] = [CompactLine(indent: 0, spans: prefix + items.prefix(1))]
        lines += items.dropFirst().map { CompactLine(indent: hang, spans: [$0]) }
        if message.edited {
            let mark = GlyphLine("(edited)", unicode: unicode)
            if lines[lines.count - 1].width + 1 + mark.width <= width - 2 {
                lines[lines.count - 1].spans += [.init(.text, GlyphLine(" ", unicode: unicode)), .init(.faint, mark)]
            } else {
                lines.append(CompactLine(indent: hang, spans: [.init(.faint, mark)]))
            }
        }
        if message.outgoing {
            let state = GlyphLine(Theme(profile: context.profile).delivery(message.delivery).0, maxWidth: max(4, width - 2 - hang),
                                  unicode: unicode)
            if lines[lines.count - 1].width + 1 + state.width <= width - 2 {
                lines[lines.count - 1].spans += [.init(.text, GlyphLine(" ", unicode: unicode)), .init(.state, state)]
            } else {
                lines.append(CompactLine(indent: hang, spans: [.init(.state, state)]))
            }
        }
        rows += lines.map(Row.compact)
        self.rows = rows
        self.message = message
        selected = context.selection == message.id
        inner = max(1, width - 2)
        previewRequests = []
        self.indent = 0
        avatar = nil
        avatarRow = 0
    }

    /// How an attachment's transfer stands, in words: `72 %`, `failed: …`, `saved as …`.
    static func compactTransfer(_ attachment: ShownAttachment, index: Int, unicode: Bool) -> String? {
        guard let transfer = attachment.transfer, !(transfer.direction != .download && transfer.outcome == .succeeded) else { return nil }
        if case .failed(let reason) = transfer.outcome { return "failed: \(reason)" }
        if transfer.outcome == .succeeded { return attachment.localPath.map { "saved as \($0)" } }
        let verb = transfer.direction == .upload ? "uploading" : "downloading"
        return transfer.percent.map { "\(verb) \($0) %" } ?? "\(verb) \(ByteCount.format(Int(transfer.done)))"
    }
}
