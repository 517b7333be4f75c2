/// What is known of the terminal a preview is for: its environment, its answer to
/// the device attributes query if one came in time, its cell size if it reports
/// pixels. Gathering them is the caller's I/O; choosing from them is pure.
package struct TerminalTraits: Sendable, Equatable {
    package var environment: [String: String]
    package var deviceAttributes: DeviceAttributes?
    package var cellSize: CellSize?

    package init(environment: [String: String], deviceAttributes: DeviceAttributes? = nil, cellSize: CellSize? = nil) {
        self.environment = environment; self.deviceAttributes = deviceAttributes; self.cellSize = cellSize
    }

    /// A variable's value, nil when unset or empty (as NO_COLOR's rule reads them).
    func value(_ name: String) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    var term: String { value("TERM") ?? "" }

    /// Inside tmux or screen, which pass neither sixels nor kitty pictures through unasked.
    package var isMultiplexed: Bool {
        value("TMUX") != nil || value("STY") != nil || term.hasPrefix("tmux") || term.hasPrefix("screen")
    }

    /// kitty, or a terminal that speaks its graphics protocol by kitty's own name (Ghostty).
    package var speaksKittyGraphics: Bool {
        value("KITTY_WINDOW_ID") != nil || term == "xterm-kitty" || term == "xterm-ghostty"
            || value("TERM_PROGRAM")?.lowercased() == "ghostty"
    }

    /// The colours it shows: none with `NO_COLOR`, 24-bit when `COLORTERM` says
    /// so (or kitty, unless behind tmux), 256 when `TERM` does, else the 16 every
    /// colour terminal has.
    package var colorDepth: ColorDepth {
        if value("NO_COLOR") != nil { return .none }
        let colorTerm = value("COLORTERM")?.lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct")
            || (speaksKittyGraphics && !isMultiplexed) { return .trueColor }
        if term.contains("256color") { return .palette256 }
        return .palette16
    }

    /// Unicode when the locale is UTF-8 (the first of `LC_ALL`, `LC_CTYPE`, `LANG`
    /// that is set), ASCII otherwise (`LANG=C`, or none).
    package var symbolSet: SymbolSet {
        let locale = (value("LC_ALL") ?? value("LC_CTYPE") ?? value("LANG") ?? "").lowercased()
        return locale.contains("utf-8") || locale.contains("utf8") ? .unicode : .ascii
    }
}
