extension Theme {
    /// Before an online peer's name in the dialog list.
    var onlineMark: String { unicode ? "●" : "*" }
    /// Green on colour terminals; bold without colour, so the mark still stands out.
    var online: CellStyle {
        guard colored else { return CellStyle(bold: true) }
        return CellStyle(foreground: profile.colors >= 256 ? 34 : 2)
    }
}
