import CommandLineKit
import Messaging

/// What `dialogs add` and `dialogs remove` both take: the group, the people, and `--json`.
/// A command holds it as a property (`var members = MembershipArguments(verb: "add")`),
/// which declares these in the command's place, in the order `init` makes them.
struct MembershipArguments {
    @Argument var dialog: DialogReference
    @Arguments var words: [String]
    @Flag var json: Bool

    /// - Parameter verb: what the command does to the people, as its help says it ("add").
    init(verb: String) {
        _dialog = Argument("DIALOG", help: SharedHelp.dialog)
        _words = Arguments("USERS", help: "Who to \(verb): @login, comma- or space-separated.", isOptional: false)
        _json = Flag("json", help: "Print the updated dialog as JSON.")
    }
}
