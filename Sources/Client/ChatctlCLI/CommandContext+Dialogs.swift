import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// What the dialog-changing commands share: naming a dialog and its people on the
/// command line, and announcing changes over chat.
extension CommandContext {
    /// The logins `@a,@b` (or `@a @b`; the `@` is optional) name; none is a usage error
    /// unless `allowNone`.
    func logins(_ words: [String], allowNone: Bool = false) throws -> [String] {
        let logins = LoginList.parse(words)
        guard !logins.isEmpty || allowNone else { throw usage("name at least one user, like @alice or @alice,@bob") }
        return logins
    }

    /// A group's members changed: the group as JSON, or a line such as
    /// "added @carol, @dave to 'ops'" (`verb` and `preposition` say which change).
    func showMembershipChange(_ group: CachedDialog, _ verb: String, _ users: [CachedUser], _ preposition: String, json: Bool) {
        let who = users.map { "@" + TerminalText.sanitize($0.login, newlines: .asSpaces) }.joined(separator: ", ")
        tellChange("\(verb) \(who) \(preposition) \(DialogsShowCommand.label(group))", json: json ? group.rawJSON : nil)
    }

    /// Tells the occupants over chat. The REST change already stands, so a chat
    /// failure is only a warning (exit 0 stays).
    func announce(_ announcement: DialogAnnouncement, messaging: MessagingSession) {
        guard !announcement.recipients.isEmpty else { return }
        let reason: String
        do {
            try chatLink(for: messaging).announce(announcement)
            return
        } catch {
            reason = "\(error)"
        }
        io.warn("warning: the change stands, but the occupants were not told over chat: \(reason)")
    }
}
