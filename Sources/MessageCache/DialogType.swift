/// A QuickBlox dialog type. A struct so that a type added by the server still fits.
public struct DialogType: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let publicGroup = DialogType(rawValue: 1)
    public static let group = DialogType(rawValue: 2)
    public static let `private` = DialogType(rawValue: 3)
}
