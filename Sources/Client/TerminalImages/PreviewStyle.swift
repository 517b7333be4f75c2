/// How a preview is drawn: not at all, as symbols in ordinary cells, or as a
/// picture in one of the two terminal graphics protocols chafa speaks.
package enum PreviewStyle: Sendable, Equatable {
    case none
    case symbols(ColorDepth, SymbolSet)
    case sixel
    case kitty
}

/// The colours symbols may use, as many as the terminal shows.
package enum ColorDepth: String, Sendable, Equatable, CaseIterable {
    /// 24-bit colour (`COLORTERM=truecolor`).
    case trueColor = "truecolor"
    /// The xterm palette's 240 fixed colours (16–255); the first 16 are left out
    /// because each terminal's theme changes them.
    case palette256 = "256"
    /// The 16 themed colours.
    case palette16 = "16"
    /// The first 8 of them, for a terminal that has no bright ones.
    case palette8 = "8"
    /// None (`NO_COLOR`): the terminal's own foreground and background, shapes only.
    case none
}

/// The characters symbols may use.
package enum SymbolSet: String, Sendable, Equatable, CaseIterable {
    /// Block elements, box drawing and space, each one column wide.
    case unicode
    /// Printable ASCII, for a terminal without UTF-8 (`LANG=C`).
    case ascii
}
