#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import ClientConfiguration
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
        let login = try cacheLogin(source: source, password: password)
        let cache: ChatCache
        do { cache = try ChatCache(path: login.cachePath) } catch {
            throw CommandError.messaging(MessagingError(cache: error))
        }
        return login.session(with: cache)
    }

    /// The logged-in user and where their cache lives, without opening it (the
    /// `cache` commands open a damaged file their own way). `password`: where a
    /// renewal gets the password (default: `renewalPassword()`).
    func cacheLogin(source: DataSource, password given: ((String) -> String?)? = nil) throws -> CacheLogin {
        let keeper = try flow { () throws(AuthFlowError) in try sessionKeeper() }
        let session: StoredSession
        let client: QuickBloxClient
        switch source {
        case .cacheOnly:
            session = try flow { () throws(AuthFlowError) in try keeper.storedSession() }
            client = keeper.makeClient(token: session.token)
        case .server:
            let password = try given ?? renewalPassword()
            let live: RenewableSession
            (live, client) = try flow { () throws(AuthFlowError) in try keeper.liveSession(checked: .byFirstRequest, password: password) }
            session = live.stored
        }
        let path = "\(keeper.store.directory)/cache-\(keeper.store.key)-\(session.userId).sqlite"
        do { try PrivateFiles.ensureDirectory(keeper.store.directory) } catch {
            throw CommandError.flow(AuthFlowError(.failure, "cannot use the state directory: \(error)"))
        }
        return CacheLogin(config: keeper.config, session: session, client: client, cachePath: path)
    }

    /// The chat connection for messaging commands: the session token is the
    /// chat password unless the config says `chatAuth: password`. A token that
    /// may have expired is checked over REST first, which renews it if it is
    /// gone (chat itself cannot say why it refuses one; docs/protocol.md §2, §7).
    func chatLink(for messaging: MessagingSession) throws -> ChatLink {
        var password: String?
        if messaging.config.chatAuth == .password {
            guard let given = try renewalPassword()(messaging.session.login ?? "user \(messaging.session.userId)") else {
                throw CommandError.flow(AuthFlowError(.authentication, "this config authenticates chat with the password (chatAuth: password)",
                                                      hint: "set CHATCTL_PASSWORD or pass --password-file PATH"))
            }
            password = given
        }
        do { return try ChatLink.make(for: messaging, password: password, verboseLog: verboseLog) } catch {
            throw CommandError.flow(error)
        }
    }

    /// A token with less life left than this is checked before chat connects with it.
    static let chatTokenMargin = 60.0

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
    var useColor: Bool {
        io.stdoutIsTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }
}

/// A logged-in user and the path of their cache, not yet opened.
struct CacheLogin {
    let config: ClientConfig
    let session: StoredSession
    let client: QuickBloxClient
    let cachePath: String

    func session(with cache: ChatCache) -> MessagingSession {
        MessagingSession(config: config, session: session,
                         service: MessagingService(api: client, cache: cache, me: session.userId))
    }
}

struct MessagingSession {
    let config: ClientConfig
    let session: StoredSession
    let service: MessagingService
}

extension ChatLink {
    /// The chat connection of a messaging session: the session token is the chat
    /// password unless the config says `chatAuth: password` (then `password`). A
    /// token that may have expired is checked over REST first, which renews it if
    /// it is gone (chat itself cannot say why it refuses one; docs/protocol.md §2, §7).
    static func make(for messaging: MessagingSession, password: String?,
                     verboseLog: (@Sendable (String) -> Void)?) throws(AuthFlowError) -> ChatLink {
        let secret: String
        switch messaging.config.chatAuth {
        case .token:
            let api = messaging.service.api
            if (api.tokenExpiresAt?.timeIntervalSinceNow ?? 0) < CommandContext.chatTokenMargin {
                do throws(QuickBloxError) { _ = try api.currentSession() } catch {
                    throw AuthFlowError(describing: error, doing: "check session")
                }
            }
            secret = api.token ?? messaging.session.token
        case .password:
            guard let password else {
                throw AuthFlowError(.authentication, "this config authenticates chat with the password (chatAuth: password)",
                                    hint: "set CHATCTL_PASSWORD or pass --password-file PATH")
            }
            secret = password
        }
        return ChatLink(config: messaging.config, me: messaging.session.userId, secret: secret, verboseLog: verboseLog)
    }
}
