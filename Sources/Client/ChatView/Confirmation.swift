/// A question above the input that the next key answers (`y` yes, anything else no).
package enum Confirmation: Hashable, Sendable {
    /// `x`: delete this message (one of ours) for everyone.
    case delete(ShownMessage)

    package var question: String {
        switch self {
        case .delete: return "delete this message? y/n"
        }
    }
}
