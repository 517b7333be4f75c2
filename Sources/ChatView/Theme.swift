/// Styles and symbols for a render profile: colours on colour terminals (none with
/// `NO_COLOR`, where layout and attributes alone tell things apart), box drawing
/// with Unicode, ASCII otherwise.
struct Theme {
    let profile: RenderProfile

    var unicode: Bool { profile.unicode }
    var colored: Bool { profile.colors > 0 }

    private func color(_ basic: UInt8, _ extended: UInt8) -> UInt8? {
        guard colored else { return nil }
        return profile.colors >= 256 ? extended : basic
    }

    var status: CellStyle { CellStyle(reverse: true) }
    var rule: CellStyle { CellStyle(foreground: color(8, 240), dim: !colored) }
    /// A notice above the input: it stands out from the messages without shouting.
    var notice: CellStyle { CellStyle(foreground: color(3, 178), bold: true) }
    var faint: CellStyle { CellStyle(foreground: color(8, 244), dim: !colored) }
    var accent: CellStyle { CellStyle(foreground: color(4, 33)) }
    var incomingBorder: CellStyle { CellStyle(foreground: color(8, 246)) }
    var readMark: CellStyle { CellStyle(foreground: color(14, 45), bold: true) }
    var error: CellStyle { CellStyle(foreground: color(1, 196), bold: !colored) }
    var attachment: CellStyle { CellStyle(bold: true) }
    var unread: CellStyle { CellStyle(foreground: color(4, 33), bold: true) }

    /// A sender's name: in groups a colour of their own (stable: from the user id).
    func sender(_ id: Int, group: Bool) -> CellStyle {
        guard group, colored else { return CellStyle(bold: true) }
        let palette: [UInt8] = profile.colors >= 256 ? [33, 71, 166, 134, 37, 172, 161, 98, 30, 130] : [2, 3, 4, 5, 6, 1]
        return CellStyle(foreground: palette[abs(id) % palette.count], bold: true)
    }

    // MARK: symbols

    var horizontal: String { unicode ? "─" : "-" }
    var vertical: String { unicode ? "│" : "|" }
    var topLeft: String { unicode ? "╭" : "+" }
    var topRight: String { unicode ? "╮" : "+" }
    var bottomLeft: String { unicode ? "╰" : "+" }
    var bottomRight: String { unicode ? "╯" : "+" }
    var dot: String { unicode ? " · " : " - " }
    var ellipsis: String { unicode ? "…" : "..." }
    var barFull: String { unicode ? "█" : "#" }
    var barEmpty: String { unicode ? "░" : "-" }
    var down: String { unicode ? "↓" : "v" }

    /// An outgoing message's state under its cell, and its style.
    func delivery(_ delivery: Delivery) -> (String, CellStyle) {
        switch delivery {
        case .queued: return ("queued", faint)
        case .sending: return ("sending" + ellipsis, faint)
        case .undelivered(let reason): return ("not sent" + (reason.isEmpty ? "" : ": \(reason)") + dot + "retrying", error)
        case .sent: return (unicode ? "✓" : "sent", faint)
        case .delivered: return (unicode ? "✓✓" : "delivered", faint)
        case .read:
            if !unicode { return ("read", readMark) }
            return (colored ? "✓✓" : "✓✓ read", readMark)
        }
    }
}
