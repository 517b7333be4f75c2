/// A QuickBlox dialog type. A struct so that a type added by the server still fits.
package struct DialogType: RawRepresentable, Hashable, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let publicGroup = DialogType(rawValue: 1)
    package static let group = DialogType(rawValue: 2)
    package static let `private` = DialogType(rawValue: 3)
}
