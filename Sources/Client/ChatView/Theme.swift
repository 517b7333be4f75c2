/// Styles and symbols for a render profile: colours on colour terminals (none with
/// `NO_COLOR`, where layout and attributes alone tell things apart), box drawing
/// with Unicode, ASCII otherwise.
struct Theme {
    let profile: RenderProfile
    /// The config's colours (`chatView.colors`), over the theme's own.
    var colors = ViewColors()

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
    var incomingBorder: CellStyle { CellStyle(foreground: chosen(colors.incoming) ?? color(8, 246)) }
    var outgoingBorder: CellStyle { CellStyle(foreground: chosen(colors.outgoing) ?? color(4, 33)) }
    /// The times under cells.
    var time: CellStyle { chosen(colors.times).map { CellStyle(foreground: $0) } ?? faint }
    var readMark: CellStyle { CellStyle(foreground: color(14, 45), bold: true) }
    var error: CellStyle { CellStyle(foreground: color(1, 196), bold: !colored) }
    var attachment: CellStyle { CellStyle(bold: true) }
    var unread: CellStyle { CellStyle(foreground: color(4, 33), bold: true) }

    /// A sender's name: in groups a colour of their own (stable: from the user id).
    func sender(_ id: Int, group: Bool) -> CellStyle {
        if let chosen = chosen(colors.names) { return CellStyle(foreground: chosen, bold: true) }
        guard group, colored else { return CellStyle(bold: true) }
        return CellStyle(foreground: senderColor(id), bold: true)
    }

    /// A palette colour the config chose, when this terminal has it.
    func chosen(_ index: UInt8?) -> UInt8? {
        guard let index, colored, profile.colors >= 256 || Int(index) < profile.colors else { return nil }
        return index
    }

    /// An outgoing message's state but read and failed.
    var state: CellStyle { chosen(colors.states).map { CellStyle(foreground: $0) } ?? faint }

    /// An initials avatar: the letters on the sender's colour (as their name's in groups),
    /// in reverse video without colours.
    func badge(_ id: Int) -> CellStyle {
        guard colored else { return CellStyle(bold: true, reverse: true) }
        return CellStyle(foreground: profile.colors >= 256 ? 231 : 7, background: senderColor(id), bold: true)
    }

    /// A user's own colour (stable: from the id).
    private func senderColor(_ id: Int) -> UInt8 {
        let palette: [UInt8] = profile.colors >= 256 ? [33, 71, 166, 134, 37, 172, 161, 98, 30, 130] : [2, 3, 4, 5, 6, 1]
        return palette[abs(id) % palette.count]
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
        case .queued: return ("queued", state)
        case .sending: return ("sending" + ellipsis, state)
        case .undelivered(let reason): return ("not sent" + (reason.isEmpty ? "" : ": \(reason)") + dot + "retrying", error)
        case .refused(let reason): return ("not sent: " + reason, error)
        case .sent: return (unicode ? "✓" : "sent", state)
        case .delivered: return (unicode ? "✓✓" : "delivered", state)
        case .read:
            if !unicode { return ("read", readMark) }
            return (colored ? "✓✓" : "✓✓ read", readMark)
        }
    }
}
