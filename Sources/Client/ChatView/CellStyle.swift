/// How a cell is drawn: colours from the terminal's palette (0–7 the standard
/// colours, 8–15 their bright forms, up to 255 on 256-colour terminals) and attributes.
package struct CellStyle: Hashable, Sendable {
    package var foreground: UInt8?
    package var background: UInt8?
    package var bold: Bool
    package var dim: Bool
    package var reverse: Bool
    package var underline: Bool

    package init(foreground: UInt8? = nil, background: UInt8? = nil, bold: Bool = false, dim: Bool = false,
                reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground; self.background = background
        self.bold = bold; self.dim = dim; self.reverse = reverse; self.underline = underline
    }

    package static let plain = CellStyle()
}
