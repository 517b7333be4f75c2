/// A QuickBlox dialog type (docs/protocol.md §5). A struct, not an enum, so that
/// a type the server adds later still decodes.
public struct QBDialogType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let publicGroup = QBDialogType(rawValue: 1)
    public static let group = QBDialogType(rawValue: 2)
    public static let `private` = QBDialogType(rawValue: 3)

    /// "public group", "group", "private", or the number for a type not known here.
    public var description: String {
        switch rawValue {
        case 1: "public group"
        case 2: "group"
        case 3: "private"
        default: String(rawValue)
        }
    }
}
