/// A QuickBlox dialog type (docs/protocol.md §5). A struct, not an enum, so that
/// a type the server adds later still decodes.
package struct QBDialogType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let publicGroup = QBDialogType(rawValue: 1)
    package static let group = QBDialogType(rawValue: 2)
    package static let `private` = QBDialogType(rawValue: 3)

    /// "public group", "group", "private", or the number for a type not known here.
    package var description: String {
        switch rawValue {
        case 1: "public group"
        case 2: "group"
        case 3: "private"
        default: String(rawValue)
        }
    }
}
