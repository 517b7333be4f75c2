import MessageCache
import Messaging

/// Messages as a person reads them: a day header when the date changes, the
/// local time, the sender's name and the text with its attachments
/// (`AttachmentLabel`); your own messages marked and
/// named "you", with their state at the end (`mark(for:color:)`); long lines
/// wrapped under the text column on a terminal.
/// Text from others is always stripped of terminal control sequences.
package struct Transcript {
    package let me: Int
    package let names: [Int: String]
    package let width: Int?
    package let color: Bool
    /// Each line starts with its message's id (`history --ids`), for edit, delete, download, --reply-to and forward.
    package var showIDs = false

    package init(me: Int, names: [Int: String], width: Int?, color: Bool) {
        self.me = me; self.names = names; self.width = width; self.color = color
    }

    package func render(_ messages: [CachedMessage]) -> String {
        var out = ""
        var lastDay: (year: Int32, day: Int32)?
        for message in messages {
            // Each time converted once; the day's header formatted only when the day changes.
            let parts = TimeText.parts(Double(message.dateSent), in: .local)
            if lastDay.map({ $0.year != parts.tm_year || $0.day != parts.tm_yday }) ?? true {
                let day = TimeText.format(parts, "%a %Y-%m-%d")
                out += (color ? "\u{1B}[2m" : "") + "── \(day) ──" + (color ? "\u{1B}[22m" : "") + "\n"
                lastDay = (parts.tm_year, parts.tm_yday)
            }
            out += line(message, time: TimeText.format(parts, "%H:%M"))
        }
        return out
    }

    package func line(_ message: CachedMessage) -> String {
        line(message, time: Self.format(message.dateSent, "%H:%M"))
    }

    /// `time`: the message's local `%H:%M`.
    private func line(_ message: CachedMessage, time: String) -> String {
        let mine = message.senderID == me
        let name = mine ? "you" : TerminalText.sanitize(names[message.senderID] ?? "user \(message.senderID)", newlines: .asSpaces)
        let id = showIDs ? message.id + " " : ""
        let prefix = "\(id)\(time) \(mine ? "»" : " ") \(name): "
        let styledPrefix = color ? "\(id)\(time) \(mine ? "»" : " ") \u{1B}[1m\(name)\u{1B}[22m: " : prefix
        let text = QuoteLine.body(of: message, names: names)
        let indent = min(prefix.count, 24)
        var body = wrap(text, firstColumn: prefix.count, indent: indent)
        if mine {
            let mark = Self.mark(for: message.status, color: color)
            if let width, width > indent + 10, Self.lastColumn(of: body, after: prefix.count) + 1 + Self.mark(for: message.status, color: false).count > width {
                body += "\n" + String(repeating: " ", count: indent) + mark
            } else {
                body += " " + mark
            }
        }
        return styledPrefix + body + "\n"
    }

    /// The column after the last line of `body`, whose first line starts at `firstColumn`.
    private static func lastColumn(of body: String, after firstColumn: Int) -> Int {
        guard let newline = body.utf8.lastIndex(of: UInt8(ascii: "\n")) else { return firstColumn + body.count }
        return body[body.utf8.index(after: newline)...].count
    }

    /// The state of your own message (docs/protocol.md §7): `✓` on the server,
    /// `✓✓` delivered to another occupant, read `✓✓` in blue on a colour terminal
    /// and `✓✓ read` in plain text, so that a script sees it too.
    package static func mark(for status: MessageStatus, color: Bool) -> String {
        switch status {
        case .sent: return "✓"
        case .delivered: return "✓✓"
        case .read: return color ? "\u{1B}[34m✓✓\u{1B}[39m" : "✓✓ read"
        }
    }

    /// Wraps at word boundaries to the terminal width; continuation lines (and
    /// the message's own line breaks) are indented under the text.
    package func wrap(_ text: String, firstColumn: Int, indent: Int) -> String {
        guard let width, width > indent + 10 else {
            if !text.utf8.contains(UInt8(ascii: "\n")) { return text }
            let pad = String(repeating: " ", count: indent)
            return text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + pad)
        }
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var column = firstColumn
        var current = ""
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let needed = (current.isEmpty ? 0 : 1) + word.count
                if !current.isEmpty && column + needed > width {
                    lines.append(current); current = ""; column = indent
                }
                var rest = Substring(word)
                while column + rest.count > width && current.isEmpty && rest.count > width - indent {
                    let take = max(1, width - column)
                    lines.append(String(rest.prefix(take))); rest = rest.dropFirst(take); column = indent
                }
                current += (current.isEmpty ? "" : " ") + rest
                column += (current.count == rest.count ? 0 : 1) + rest.count
            }
            lines.append(current); current = ""; column = indent
        }
        return lines.joined(separator: "\n" + pad)
    }

    package static func format(_ unix: Int, _ pattern: StaticString) -> String {
        TimeText.format(Double(unix), pattern, in: .local)
    }
}
