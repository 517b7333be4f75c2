import MessageCache
import Messaging

/// How a dialog is named on a screen or in a line: a group by its name; a private dialog,
/// or a group with none, by its people's names.
package enum DialogTitle {
    /// A group's name; for a private dialog, the other person's name. Made by
    /// `DialogNameIndex.title`, so that what is shown is what a command accepts.
    package static func of(_ dialog: CachedDialog, me: Int, names: [Int: String]) -> String {
        TerminalText.sanitize(DialogNameIndex.title(of: dialog, me: me, names: names), newlines: .asSpaces)
    }

    /// The title of a dialog looked up with its occupants' names (`MessagingService.namedDialog`).
    package static func of(_ named: NamedDialog, me: Int) -> String { of(named.dialog, me: me, names: named.names) }

    package static func isMadeOfOccupants(_ dialog: CachedDialog) -> Bool { DialogNameIndex.isMadeOfOccupants(dialog) }
}
