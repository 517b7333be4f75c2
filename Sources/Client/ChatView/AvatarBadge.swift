/// What stands beside the first incoming cell of a run (`ChatViewSettings.avatars`):
/// the sender's picture, drawn by the edge as symbols, or until then (and for
/// anyone without one) their initials on a colour of their own, `AQ` for "alice Q".
/// A square of `columns` × `rows` cells.
package enum AvatarBadge: Hashable, Sendable {
    case initials(String, userID: Int)
    /// The sender's picture (`ImagePreview.cells`).
    case image(ImagePreview)

    package static let columns = 4
    package static let rows = 2
    /// Columns an incoming cell moves right by when avatars show: the square and a space.
    package static let indent = columns + 1

    /// The first letters of the first two words, upper case, at most two columns:
    /// `AQ` for "alice Q", `B` for "bob", `李` for "李雷"; `?` for a name of none.
    package static func initials(of name: String, unicode: Bool) -> String {
        var glyphs: [Glyph] = []
        var width = 0
        for word in name.split(whereSeparator: { $0.isWhitespace }).prefix(2) {
            guard let first = word.first else { continue }
            let glyph = Glyph.split(Character(first.uppercased()), unicode: unicode).first ?? Glyph("?", width: 1)
            guard glyph.width > 0, width + glyph.width <= 2 else { break }
            glyphs.append(glyph)
            width += glyph.width
        }
        return glyphs.isEmpty ? "?" : glyphs.map(\.text).joined()
    }

    /// The picture a sender's avatar file is drawn as: symbols in the square, in the
    /// profile's colours (never sixel or kitty, which would cover the cells beside it).
    package static func request(path: String, profile: RenderProfile) -> PreviewRequest {
        PreviewRequest(path: path, room: CellBox(columns: columns, rows: rows),
                       profile: RenderProfile(unicode: profile.unicode, colors: profile.colors, images: .symbols))
    }
}
