import Diagnostics
import Messaging
import Presentation
import XMPPTransport

/// `block`, `unblock` and `blocked`: the block list read and changed over a brief chat
/// connection (docs/protocol.md §7, "Privacy lists"), each request waiting at most
/// `blockListSeconds`; what was read is kept in the cache for `dialogs` and the chat view.
extension CommandContext {
    /// The chat connect waits at most this long (instead of the config's 15 s), and each request as long again.
    static let blockListSeconds = 10.0

    /// Runs `body` with the block list's requests over a brief chat connection of `messaging`.
    func overBlockList<T>(_ messaging: MessagingSession,
                          _ body: (ChatLink, @escaping BlockListExchange.Ask) throws(Failure) -> T) throws -> T {
        try overChat(messaging) { link throws(Failure) in
            try BlockListExchange.run(over: link, timeout: Self.blockListSeconds) { ask throws(Failure) in try body(link, ask) }
        }
    }

    /// `body` with a chat link of `messaging` whose connect waits at most `blockListSeconds`.
    func overChat<T>(_ messaging: MessagingSession, _ body: (ChatLink) throws(Failure) -> T) throws -> T {
        var config = messaging.config
        config.chatConnectTimeout = min(config.chatConnectTimeout, Self.blockListSeconds)
        return try body(try chatLink(for: MessagingSession(config: config, session: messaging.session, service: messaging.service)))
    }

    /// `block USER` or `unblock USER`: the user found as commands name people, the list changed
    /// (refused, nothing changed, when it would change nothing), and one line on stderr says so.
    func changeBlock(_ change: BlockListExchange.Change, of word: String) throws -> ExitCode {
        let session = try messagingSession(source: .server)
        let service = session.service
        let user = try service.user(named: word)
        let label = Self.label(login: user.login, fullName: user.fullName)
        if user.id == service.me {
            throw Failure(.invalidInput, "you cannot \(change == .block ? "block" : "unblock") yourself")
        }
        let list = try overBlockList(session) { link, ask throws(Failure) in
            try BlockListExchange.apply(change, to: link.userJID(user.id), label: label, ask)
        }
        service.rememberBlocked(list.blockedUserIDs)
        switch change {
        case .block: io.warn("blocked \(label): their messages and presence no longer reach you (privacy list '\(list.name)')")
        case .unblock: io.warn("unblocked \(label)")
        }
        return .ok
    }

    /// `@login (Full Name)`, or `@login` alone.
    static func label(login: String, fullName: String?) -> String {
        guard let fullName, !fullName.isEmpty, fullName != login else { return "@" + login }
        return "@\(login) (\(fullName))"
    }
}
