/// `export --format md`: a heading per dialog and per day, each message its
/// sender, time (and for your own its state) then its text as one paragraph,
/// a reply's or forward's original as a quote, attachments as a list (links to
/// the files saved beside it). Everything another user wrote goes through
/// `MarkdownText`, so no message can change the document's structure.
package struct MarkdownExportWriter: ExportWriter {
    let zone: TimeText.Zone
    private var lastDay: (year: Int32, day: Int32)?

    package init(zone: TimeText.Zone = .local) { self.zone = zone }

    package mutating func begin(_ header: ExportHeader) -> String {
        var out = "# " + MarkdownText.inline(header.title) + "\n\n"
        var about = "A \(header.dialogType) dialog (\(MarkdownText.inline(header.dialogID.rawValue))), exported by "
            + "**\(MarkdownText.inline(header.exportedBy))** on \(ExportStateText.time(header.exportedAt, zone: zone))"
        if let range = ExportStateText.range(since: header.since, before: header.before, zone: zone) { about += ": \(range)" }
        out += about + ".\n\n"
        return out
    }

    package mutating func message(_ exported: ExportedMessage) -> String {
        var out = ""
        let parts = TimeText.parts(Double(exported.message.dateSent), in: zone)
        if lastDay.map({ $0.year != parts.tm_year || $0.day != parts.tm_yday }) ?? true {
            out += "## " + TimeText.format(parts, "%a %Y-%m-%d") + "\n\n"
            lastDay = (parts.tm_year, parts.tm_yday)
        }
        var head = "**" + MarkdownText.inline(exported.senderName) + "** · " + TimeText.format(parts, "%H:%M")
        if exported.mine { head += " · " + ExportStateText.of(exported.message.status) }
        let body = exported.text.isEmpty ? [] : MarkdownText.lines(exported.text)
        if let quote = exported.quote {
            out += head + "\n\n"
            let action = quote.action == .reply ? "↪ in reply to" : "↪ forwarded from"
            var lines = ["\(action) **\(MarkdownText.inline(quote.senderName))**:"] + MarkdownText.lines(quote.text)
            if quote.more > 0 { lines.append("and \(quote.more) more") }
            out += lines.map { "> " + $0 }.joined(separator: "\\\n") + "\n\n"
            if !body.isEmpty { out += body.joined(separator: "\\\n") + "\n\n" }
        } else {
            out += ([head] + body).joined(separator: "\\\n") + "\n\n"
        }
        if !exported.attachments.isEmpty {
            out += exported.attachments.map { "- " + Self.attachment($0) }.joined(separator: "\n") + "\n\n"
        }
        return out
    }

    package mutating func end(count: Int) -> String {
        "---\n\n\(count) message\(count == 1 ? "" : "s").\n"
    }

    /// `![cat.jpg](files/cat.jpg) (image, 1.2 MB)`, or the name and why there is no file.
    static func attachment(_ item: ExportedAttachment) -> String {
        let name = MarkdownText.inline(item.shownName)
        let details = ExportStateText.details(item)
        var out: String
        if let path = item.savedPath {
            let isImage = item.attachment.type == "image" || ExportedAttachment.imageMediaType(item.attachment) != nil
            out = (isImage ? "!" : "") + "[\(name)](\(MarkdownText.destination(path)))"
        } else {
            out = name
        }
        if !details.isEmpty { out += " (\(MarkdownText.inline(details)))" }
        if let note = item.note { out += ": " + MarkdownText.inline(note) }
        return out
    }
}
