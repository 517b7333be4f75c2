import HTTPTransport

/// `export --format html`: one file that needs nothing else: a small stylesheet of
/// its own, a heading per day, each message an `<article>` with its sender, time
/// and (your own) state, a reply's or forward's original as a `<blockquote>`,
/// images inline as `data:` URIs, other files linked where they were saved. Another
/// user's text is escaped (`HTMLText`); the page's policy allows no script, no
/// fetch and no image but inline ones, whatever got through.
package struct HTMLExportWriter: ExportWriter {
    let zone: TimeText.Zone
    private var lastDay: (year: Int32, day: Int32)?

    package init(zone: TimeText.Zone = .local) { self.zone = zone }

    static let style = """
        body{font:15px/1.45 system-ui,sans-serif;max-width:46em;margin:2em auto;padding:0 1em;color:#1d1d1f;background:#fff}
        header.export p{color:#666}
        h2.day{font-size:.85em;color:#666;text-align:center;margin:1.6em 0 .6em}
        article{margin:.5em 0;padding:.4em .7em;border-radius:.6em;background:#f1f1f4}
        article.mine{background:#e3f0ff;margin-left:3em}
        .who{font-weight:600}.when,.state{color:#666;font-size:.85em;margin-left:.5em}.state.read{color:#0a62c9}
        .text{white-space:pre-wrap;overflow-wrap:anywhere;margin:.2em 0}
        blockquote{margin:.3em 0;padding:.1em .6em;border-left:3px solid #9aa;color:#444}
        blockquote p{white-space:pre-wrap;margin:.1em 0}
        figure{margin:.4em 0}img{max-width:100%;height:auto;border-radius:.3em}
        figcaption,.file{font-size:.85em;color:#444;margin:.2em 0}.missing{color:#888}
        footer{color:#666;font-size:.85em;margin-top:2em}
        """

    package mutating func begin(_ header: ExportHeader) -> String {
        let title = HTMLText.escape(header.title, newlines: .asSpaces)
        var about = "A \(HTMLText.escape(header.dialogType)) dialog (<code>\(HTMLText.escape(header.dialogID.rawValue, newlines: .asSpaces))</code>), "
            + "exported by \(HTMLText.escape(header.exportedBy, newlines: .asSpaces)) on \(ExportStateText.time(header.exportedAt, zone: zone))"
        if let range = ExportStateText.range(since: header.since, before: header.before, zone: zone) { about += ": \(range)" }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <meta name="generator" content="chatctl export">
            <title>\(title)</title>
            <style>
            \(Self.style)
            </style>
            </head>
            <body>
            <header class="export"><h1>\(title)</h1><p>\(about).</p></header>
            <main>

            """
    }

    package mutating func message(_ exported: ExportedMessage) -> String {
        var out = ""
        let message = exported.message
        let parts = TimeText.parts(Double(message.dateSent), in: zone)
        if lastDay.map({ $0.year != parts.tm_year || $0.day != parts.tm_yday }) ?? true {
            out += "<h2 class=\"day\">" + TimeText.format(parts, "%a %Y-%m-%d") + "</h2>\n"
            lastDay = (parts.tm_year, parts.tm_yday)
        }
        out += "<article class=\"\(exported.mine ? "message mine" : "message")\" id=\"m-\(HTMLText.escape(message.id, newlines: .asSpaces))\">\n"
        out += "<p class=\"head\"><span class=\"who\">\(HTMLText.escape(exported.senderName, newlines: .asSpaces))</span>"
        out += "<time class=\"when\" datetime=\"\(TimeText.iso8601(Double(message.dateSent)))\">\(TimeText.format(parts, "%H:%M"))</time>"
        if exported.mine {
            let status = message.status
            out += "<span class=\"state \(status.rawValue)\">\(ExportStateText.of(status))</span>"
        }
        out += "</p>\n"
        if let quote = exported.quote {
            let action = quote.action == .reply ? "↪ in reply to" : "↪ forwarded from"
            out += "<blockquote class=\"\(quote.action.rawValue)\"><p class=\"quoted-head\">\(action) "
                + "<span class=\"who\">\(HTMLText.escape(quote.senderName, newlines: .asSpaces))</span></p>"
                + "<p>\(HTMLText.escape(quote.text))</p>"
                + (quote.more > 0 ? "<p>and \(quote.more) more</p>" : "") + "</blockquote>\n"
        }
        if !exported.text.isEmpty { out += "<p class=\"text\">\(HTMLText.escape(exported.text))</p>\n" }
        for attachment in exported.attachments { out += Self.attachment(attachment) }
        return out + "</article>\n"
    }

    package mutating func end(count: Int) -> String {
        "</main>\n<footer>\(count) message\(count == 1 ? "" : "s").</footer>\n</body>\n</html>\n"
    }

    /// An inline image as a figure; any other file as a line, linked when it was saved.
    static func attachment(_ item: ExportedAttachment) -> String {
        let name = HTMLText.escape(item.shownName, newlines: .asSpaces)
        let details = ExportStateText.details(item)
        var caption = item.savedPath.map { "<a href=\"\(PercentEncoding.encode($0, keeping: .pathCharacters))\">\(name)</a>" } ?? name
        if !details.isEmpty { caption += " (\(HTMLText.escape(details, newlines: .asSpaces)))" }
        if let note = item.note { caption += ": " + HTMLText.escape(note, newlines: .asSpaces) }
        if let inline = item.inline {
            return "<figure><img src=\"data:\(inline.mediaType);base64,\(inline.base64)\" alt=\"\(name)\">"
                + "<figcaption>\(caption)</figcaption></figure>\n"
        }
        return "<p class=\"file\(item.savedPath == nil ? " missing" : "")\">\(caption)</p>\n"
    }
}
