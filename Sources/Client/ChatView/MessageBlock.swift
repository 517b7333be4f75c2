/// One message as rows of the conversation: a day separator when the day changes,
/// the sender's name above the first of a run of incoming messages, the cell (a
/// box that hugs its text, at most about two thirds of the width; incoming on the
/// left, outgoing on the right) with its attachments, and the time under it
/// (outgoing: with the message's state). Pure: the same message, neighbour, width
/// and context (the model's previews among it) always give the same rows.
package struct MessageBlock: Hashable, Sendable {
    package enum Row: Hashable, Sendable {
        case daySeparator(String)
        case sender(String)
        case top
        case text(GlyphLine)
        /// An attachment's name, size and kind.
        case attachment(GlyphLine)
        /// Attachment `attachment`'s transfer.
        case progress(attachment: Int, Transfer)
        /// Where attachment `attachment` was downloaded to.
        case savedAs(attachment: Int)
        /// Row `row` of attachment `attachment`'s preview (a picture: `cells` or `escape`).
        case image(attachment: Int, row: Int, ImagePreview)
        /// A line of why an image has no preview.
        case noPreview(GlyphLine)
        case bottom
        case footer
        /// A line of what a reply or a forward quotes (`MessageBlock+Quote.swift`).
        case quote(GlyphLine)
        /// A line of the compact layout (`ChatViewSettings.bubbles` false).
        case compact(CompactLine)
    }

    package var rows: [Row]
    package let message: ShownMessage
    /// Columns inside the box, between the padding.
    package let inner: Int
    package let selected: Bool
    /// The previews its images want at this width, in the model or not yet
    /// (the update asks for those missing).
    package let previewRequests: [PreviewRequest]
    /// Columns an incoming cell stands right of its place, for the avatars' column.
    package let indent: Int
    /// Beside the cell from row `avatarRow` on (the `.top` row): the first incoming cell of a run.
    package let avatar: AvatarBadge?
    package let avatarRow: Int
    /// The links on its text rows, by row index (`LinkFinder`): underlined, and hyperlinks
    /// where the terminal makes them.
    package var links: [Int: [LinkSpan]] = [:]

    package var height: Int { rows.count }

    /// Builds the block of `message`, which follows `previous` in the view, `width` columns wide.
    package init(_ message: ShownMessage, previous: ShownMessage?, width: Int, context: LayoutContext) {
        if !context.settings.bubbles {
            self = MessageBlock(compact: message, previous: previous, width: width, context: context)
            return
        }
        self.message = message
        selected = context.selection == message.id
        let unicode = context.profile.unicode
        let maxInner = Self.maxInner(width: width)
        let settings = context.settings
        indent = settings.avatars == .none ? 0 : AvatarBadge.indent
        var rows: [Row] = []
        let day = context.clock.day(message.dateSent)
        let newDay = previous.map { context.clock.day($0.dateSent) != day } ?? true
        if newDay { rows.append(.daySeparator(context.clock.date(message.dateSent, now: Int(context.now)))) }
        let runContinues = !newDay && previous.map { !$0.outgoing && $0.senderID == message.senderID } ?? false
        if !message.outgoing && !runContinues && settings.nameLabels { rows.append(.sender(message.senderName)) }

        var body: [Row] = []
        var contentWidth = 0
        var requests: [PreviewRequest] = []
        for line in message.quote.map({ Self.quoteLines($0, maxInner: maxInner, unicode: unicode) }) ?? [] {
            contentWidth = max(contentWidth, line.width)
            body.append(.quote(line))
        }
        for (index, attachment) in message.attachments.enumerated() {
            let label = GlyphLine(Self.label(of: attachment, unicode: unicode), maxWidth: maxInner, unicode: unicode)
            contentWidth = max(contentWidth, label.width)
            body.append(.attachment(label))
            if let request = Self.previewRequest(for: attachment, maxInner: maxInner, profile: context.profile) {
                requests.append(request)
                // The rows the preview in the model covers; none until it is drawn.
                let shown = context.previews.preview(for: request)?.preview
                if let shown, let box = shown.box {
                    contentWidth = max(contentWidth, box.columns)
                    for row in 0..<box.rows { body.append(.image(attachment: index, row: row, shown)) }
                } else if case .unavailable(let reason)? = shown {
                    for line in GlyphLine.wrap("no preview: \(reason)", width: maxInner, unicode: unicode).prefix(3) {
                        contentWidth = max(contentWidth, line.width)
                        body.append(.noPreview(line))
                    }
                }
            }
            // A finished upload, or a finished fetch for the preview, needs no row; a
            // download the user asked for says where the file went.
            if let transfer = attachment.transfer, !(transfer.direction != .download && transfer.outcome == .succeeded) {
                body.append(.progress(attachment: index, transfer))
                contentWidth = max(contentWidth, min(maxInner, 24))
                if transfer.outcome == .succeeded, attachment.localPath != nil { body.append(.savedAs(attachment: index)) }
            }
        }
        var textLinks: [(bodyRow: Int, spans: [LinkSpan])] = []
        if !message.text.isEmpty {
            let lines = GlyphLine.wrap(message.text, width: maxInner, unicode: unicode)
            let found = LinkFinder.links(in: message.text)
            let spans = found.isEmpty ? [] : LinkFinder.spans(of: found, on: lines)
            for (number, line) in lines.enumerated() {
                contentWidth = max(contentWidth, line.width)
                if number < spans.count && !spans[number].isEmpty { textLinks.append((body.count, spans[number])) }
                body.append(.text(line))
            }
        }
        if body.isEmpty { body.append(.text(GlyphLine())) }
        inner = max(1, min(maxInner, contentWidth))
        avatarRow = rows.count
        let (avatar, avatarRequest) = Self.avatar(for: message, firstOfRun: !message.outgoing && !runContinues, context: context)
        self.avatar = avatar
        previewRequests = requests + (avatarRequest.map { [$0] } ?? [])
        rows.append(.top)
        for (bodyRow, spans) in textLinks { links[rows.count + bodyRow] = spans }
        rows += body
        rows.append(.bottom)
        // Without time labels an outgoing cell keeps its footer for its state.
        if settings.timeLabels || message.outgoing { rows.append(.footer) }
        self.rows = rows
    }

    /// Preview blocks are at most this many rows tall.
    package static let maximumImageRows = 12

    /// Columns inside a cell at most, in a conversation `width` columns wide: about two thirds.
    static func maxInner(width: Int) -> Int { max(8, width * 2 / 3 - 4) }

    /// The preview an image attachment wants: one whose file is on this machine
    /// (sent from here, or fetched), unless `--images none`.
    static func previewRequest(for attachment: ShownAttachment, maxInner: Int, profile: RenderProfile) -> PreviewRequest? {
        guard attachment.isImage, let path = attachment.localPath, profile.images != .none else { return nil }
        return PreviewRequest(path: path, room: CellBox(columns: maxInner, rows: maximumImageRows), profile: profile)
    }

    /// `[image] cat.jpg · 1.2 MB`
    static func label(of attachment: ShownAttachment, unicode: Bool) -> String {
        var text = "[\(attachment.kind.isEmpty ? "file" : attachment.kind)] \(attachment.name.isEmpty ? "attachment" : attachment.name)"
        if let size = attachment.size { text += (unicode ? " · " : " - ") + ByteCount.format(size) }
        return text
    }

    /// The box's outer width: borders, padding and text.
    package var outerWidth: Int { inner + 4 }

    /// The column where the box starts, in a conversation `width` columns wide.
    package func boxColumn(width: Int) -> Int {
        message.outgoing ? max(0, width - 1 - outerWidth) : 1 + indent
    }
}
