/// The `type` of a dialog (docs/protocol.md §5).
package enum DialogKind: Int {
    case publicGroup = 1
    case group = 2
    case privateChat = 3

    package var isGroup: Bool { self != .privateChat }
}
