/// The keys and slash commands, over the screen (`/help`, F1); Esc closes it. What it
/// lists is one table of data, which the overlay and its tests read.
package struct HelpOverlay: Hashable, Sendable {
    /// The first line shown (the list scrolls on a small screen).
    package var top = 0

    package init() {}

    /// A heading (no keys) or a key and what it does.
    package struct Line: Hashable, Sendable {
        package var keys: String
        package var does: String
        package var isHeading: Bool { does.isEmpty }
    }

    package static func lines(unicode: Bool) -> [Line] {
        let (up, down, dot) = unicode ? ("↑", "↓", " · ") : ("Up", "Down", ", ")
        return [
            Line(keys: "Writing", does: ""),
            Line(keys: "Enter", does: "send"),
            Line(keys: "^J\(dot)Alt-Enter", does: "new line in the message"),
            Line(keys: "\(up)/\(down)", does: "move in the text, else earlier messages sent"),
            Line(keys: "^A ^E ^W ^U ^K", does: "line start, end, delete word, to start, to end"),
            Line(keys: "Reading", does: ""),
            Line(keys: "PgUp/PgDn\(dot)wheel", does: "scroll"),
            Line(keys: "Home/End", does: "oldest, newest (with an empty input)"),
            Line(keys: "Tab", does: "select a message, then \(up)/\(down) to move"),
            Line(keys: "Selected message", does: ""),
            Line(keys: "r", does: "reply"),
            Line(keys: "f", does: "forward to another dialog"),
            Line(keys: "y", does: "copy the text (OSC 52)"),
            Line(keys: "e\(dot)x", does: "edit, delete your own"),
            Line(keys: "d", does: "save the attachment"),
            Line(keys: "Commands", does: ""),
            Line(keys: "/attach PATH", does: "send a file"),
            Line(keys: "/download", does: "save the newest attachment shown"),
            Line(keys: "/accept [NAME]", does: "accept a contact request (the oldest, or NAME's)"),
            Line(keys: "/reject [NAME]", does: "refuse a contact request"),
            Line(keys: "/block\(dot)/unblock", does: "block, unblock the other person (asks first)"),
            Line(keys: "/help\(dot)F1", does: "this help"),
            Line(keys: "/quit\(dot)^C", does: "leave"),
            Line(keys: "//text", does: "a message that starts with /"),
            Line(keys: "Esc", does: "back: the help, a selection, a reply or edit, a forward, the dialog list; else quit"),
        ]
    }
}

extension HelpOverlay {
    /// One row inside the box: a heading, or a key column and a text column.
    package struct Row: Hashable, Sendable {
        package var keys: String
        package var text: String
        package var heading: Bool
    }

    /// The box's width on a screen `width` columns wide: at most 64 columns.
    package static func boxWidth(screenWidth width: Int) -> Int { min(64, width - 2) }

    /// The overlay's frame on a `width` × `height` screen: at most 64 columns, as tall as
    /// its rows or the screen allow, over the middle.
    package static func frame(width: Int, height: Int, rowCount: Int) -> (row: Int, column: Int, width: Int, height: Int) {
        let boxWidth = Self.boxWidth(screenWidth: width)
        let boxHeight = min(rowCount + 2, height - 3)
        return (max(1, (height - boxHeight) / 2), (width - boxWidth) / 2, boxWidth, boxHeight)
    }

    /// The key column's width in a box `boxWidth` wide; 0 when keys go on a row of their own.
    package static func keyWidth(boxWidth: Int, unicode: Bool) -> Int {
        let widest = lines(unicode: unicode).filter { !$0.isHeading }.map { GlyphLine($0.keys, unicode: unicode).width }.max() ?? 0
        return boxWidth - 4 - widest - 2 >= 30 ? widest : 0
    }

    /// The rows for a box `boxWidth` wide: what a key does wraps under itself; on a narrow
    /// box each key has a row of its own, what it does indented below.
    package static func rows(boxWidth: Int, unicode: Bool) -> [Row] {
        let inner = max(8, boxWidth - 4)
        let keyWidth = keyWidth(boxWidth: boxWidth, unicode: unicode)
        var rows: [Row] = []
        for line in lines(unicode: unicode) {
            if line.isHeading {
                rows.append(Row(keys: line.keys, text: "", heading: true))
                continue
            }
            if keyWidth == 0 {
                rows.append(Row(keys: line.keys, text: "", heading: false))
                for part in GlyphLine.wrap(line.does, width: inner - 3, unicode: unicode) {
                    rows.append(Row(keys: "", text: String(part.glyphs.map(\.text).joined()), heading: false))
                }
            } else {
                let parts = GlyphLine.wrap(line.does, width: inner - 1 - keyWidth - 2, unicode: unicode)
                for (index, part) in parts.enumerated() {
                    rows.append(Row(keys: index == 0 ? line.keys : "", text: String(part.glyphs.map(\.text).joined()), heading: false))
                }
            }
        }
        return rows
    }

    /// How many rows fit inside the frame, and how many there are, on a `width` × `height` screen.
    package static func extent(width: Int, height: Int, unicode: Bool) -> (visible: Int, count: Int) {
        let boxWidth = Self.boxWidth(screenWidth: width)
        let count = rows(boxWidth: boxWidth, unicode: unicode).count
        return (max(1, frame(width: width, height: height, rowCount: count).height - 2), count)
    }
}
