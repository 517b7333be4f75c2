extension PreviewStyle {
    /// The style for `--images auto` on `terminal`; pure, so that the whole table is
    /// tested. First match wins:
    ///
    /// | the terminal | style |
    /// |---|---|
    /// | no `TERM`, or `dumb` | none |
    /// | `NO_COLOR` | symbols, no colours |
    /// | in tmux or screen | symbols |
    /// | kitty, Ghostty | kitty |
    /// | answers the DA1 query with 4, and reports its cell size in pixels | sixel |
    /// | anything else | symbols |
    ///
    /// Sixel needs the cell size: a sixel picture is sized in pixels, and the
    /// assumed 8×16 would spill over or fall short of the cells reserved for it.
    /// The other modes are the caller's to map: `--images symbols` is
    /// `symbols(for:)`, `sixel`, `kitty` and `none` are themselves.
    package static func automatic(for terminal: TerminalTraits) -> PreviewStyle {
        if terminal.term.isEmpty || terminal.term == "dumb" { return .none }
        if terminal.colorDepth == .none || terminal.isMultiplexed { return symbols(for: terminal) }
        if terminal.speaksKittyGraphics { return .kitty }
        if terminal.deviceAttributes?.drawsSixels == true, terminal.cellSize != nil { return .sixel }
        return symbols(for: terminal)
    }

    /// Symbols in the colours and characters `terminal` has.
    package static func symbols(for terminal: TerminalTraits) -> PreviewStyle {
        .symbols(terminal.colorDepth, terminal.symbolSet)
    }
}
