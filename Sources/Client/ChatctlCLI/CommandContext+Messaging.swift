#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import ClientConfiguration
import Diagnostics
import MessageCache
import Messaging
import QuickBloxAPI

extension CommandContext {
    /// The logged-in user's messaging service. From the cache only, the stored
    /// session only names the user (even if expired) and nothing touches the network.
    func messagingService(source: DataSource) throws -> MessagingService {
        try messagingSession(source: source).service
    }

    /// The config, the session and the messaging service of the logged-in user.
    func messagingSession(source: DataSource) throws -> MessagingSession {
        try messagingSession(source: source, password: nil)
    }

    /// `password`: where a renewal gets the password (default: `renewalPassword()`).
    private func messagingSession(source: DataSource, password: ((String) -> String?)?) throws -> MessagingSession {
        try cacheLogin(source: source, password: password).openSession()
    }

    /// The logged-in user and where their cache lives, without opening it (the
    /// `cache` commands open a damaged file their own way). `password`: where a
    /// renewal gets the password (default: `renewalPassword()`).
    func cacheLogin(source: DataSource, password given: ((String) -> String?)? = nil) throws -> CacheLogin {
        let keeper = try sessionKeeper()
        let session: StoredSession
        let client: QuickBloxClient
        switch source {
        case .cacheOnly:
            session = try keeper.storedSession()
            client = keeper.makeClient(token: session.token)
        case .server:
            let password = try given ?? renewalPassword()
            let live: RenewableSession
            (live, client) = try keeper.liveSession(checked: .byFirstRequest, password: password)
            session = live.stored
        }
        let path = "\(keeper.store.directory)/cache-\(keeper.store.key)-\(session.userId).sqlite"
        do { try PrivateFiles.ensureDirectory(keeper.store.directory) } catch {
            throw Failure(.failure, "cannot use the state directory: \(error)")
        }
        return CacheLogin(config: keeper.config, session: session, client: client, cachePath: path)
    }

    /// The chat connection for messaging commands: the session token is the chat password
    /// unless the config says `chatAuth: password`, asked for (a file is read now, a prompt
    /// comes) only when chat connects.
    func chatLink(for messaging: MessagingSession) throws -> ChatLink {
        let login = messaging.session.login ?? "user \(messaging.session.userId)"
        let ask = messaging.config.chatAuth == .password ? try renewalPassword() : nil
        var given: String?
        return ChatLink.make(for: messaging, verboseLog: verboseLog) {
            if given == nil { given = ask?(login) }
            return given
        }
    }

    /// A chat engine on this thread, over the session's chat link (`chatLink(for:)`).
    func chatEngine(for messaging: MessagingSession, settings: ChatEngine.Settings,
                    handler: @escaping (ChatEngineEvent) -> Void) throws -> ChatEngine {
        ChatEngine(link: try chatLink(for: messaging), service: messaging.service, settings: settings, handler: handler)
    }


    /// The messaging session for a command that must never prompt (the chat view
    /// owns the terminal): a forgotten session is renewed only with a password
    /// from --password-file or CHATCTL_PASSWORD.
    func quietMessagingSession() throws -> MessagingSession {
        let given = try filePassword() ?? environmentPassword
        return try messagingSession(source: .server, password: { _ in given })
    }

    /// Columns of the terminal on stdout, or nil when it is not a terminal.
    var terminalWidth: Int? { io.stdoutColumns }

    /// Bold and dim only on a terminal, never with NO_COLOR or TERM=dumb.
    var useColor: Bool { io.stdoutIsTerminal && Self.colorAllowed(by: environment) }
}
