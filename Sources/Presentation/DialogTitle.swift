import MessageCache

/// How a dialog is named on a screen or in a line: a group by its name; a private dialog,
/// or a group with none, by its people's names.
package enum DialogTitle {
    /// A group's name; for a private dialog, the other person's name.
    package static func of(_ dialog: CachedDialog, me: Int, names: [Int: String]) -> String {
        if isMadeOfOccupants(dialog) {
            let others = dialog.occupantIDs.filter { $0 != me }.map { names[$0] ?? "user \($0)" }
            if !others.isEmpty { return TerminalText.sanitize(others.joined(separator: ", "), newlines: .asSpaces) }
        }
        return TerminalText.sanitize(dialog.name, newlines: .asSpaces)
    }

    package static func isMadeOfOccupants(_ dialog: CachedDialog) -> Bool { dialog.type == .private || dialog.name.isEmpty }
}
