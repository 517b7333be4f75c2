import CommandLineKit
import Diagnostics
import MessageCache
import Messaging

/// What the dialog-changing commands share: naming a dialog and its people on the
/// command line, and announcing changes over chat.
extension CommandContext {
    /// The dialog `reference` names, as the server has it now.
    func currentDialog(_ reference: DialogReference, service: MessagingService) throws -> CachedDialog {
        let cached = try service.resolve(reference, source: .server, createPrivate: false)
        return try service.refreshDialog(cached)
    }

    /// A group named by `reference`, as the server has it now; a private dialog is bad
    /// input (its occupants never change), `hint` says what to do instead.
    func currentGroup(_ reference: DialogReference, service: MessagingService, hint: String) throws -> CachedDialog {
        let dialog = try currentDialog(reference, service: service)
        guard dialog.type != .private else {
            throw Failure(.invalidInput, "a private dialog's occupants cannot change", hint: hint)
        }
        return dialog
    }

    /// The logins `@a,@b` (or `@a @b`; the `@` is optional) name; none is a usage error
    /// unless `allowNone`.
    func logins(_ words: [String], allowNone: Bool = false) throws -> [String] {
        let logins = LoginList.parse(words)
        guard !logins.isEmpty || allowNone else { throw usage("name at least one user, like @alice or @alice,@bob") }
        return logins
    }

    /// The users with these logins, each looked up once, in order.
    func users(_ logins: [String], service: MessagingService) throws -> [CachedUser] {
        try logins.map { login throws(Failure) in try service.user(login: login, source: .server) }
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
