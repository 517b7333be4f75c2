/// How a cell is drawn: colours from the terminal's palette (0–7 the standard
/// colours, 8–15 their bright forms, up to 255 on 256-colour terminals) and attributes.
public struct CellStyle: Hashable, Sendable {
    public var foreground: UInt8?
    public var background: UInt8?
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(foreground: UInt8? = nil, background: UInt8? = nil, bold: Bool = false, dim: Bool = false,
                reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground; self.background = background
        self.bold = bold; self.dim = dim; self.reverse = reverse; self.underline = underline
    }

    public static let plain = CellStyle()
}
