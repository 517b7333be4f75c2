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
        let login = try cacheLogin(source: source, password: password)
        let cache: ChatCache
        do { cache = try ChatCache(path: login.cachePath) } catch {
            throw Failure(cache: error)
        }
        return login.session(with: cache)
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
    /// The chat connection of a messaging session. At each connect: with `chatAuth: token` the
    /// session token as it is then, checked over REST first when it may have expired, which
    /// renews it if it is gone (chat itself cannot say why it refuses one; docs/protocol.md
    /// §2, §7); with `chatAuth: password`, what `password` gives.
    static func make(for messaging: MessagingSession, verboseLog: (@Sendable (String) -> Void)?,
                     password: @escaping () -> String?) -> ChatLink {
        let (config, api, stored) = (messaging.config, messaging.service.api, messaging.session.token)
        return ChatLink(config: config, me: messaging.session.userId, verboseLog: verboseLog) { () throws(Failure) -> String in
            switch config.chatAuth {
            case .token:
                if (api.tokenExpiresAt?.timeIntervalSinceNow ?? 0) < CommandContext.chatTokenMargin {
                    do throws(QuickBloxError) { _ = try api.currentSession() } catch {
                        throw Failure(describing: error, doing: "check session")
                    }
                }
                return api.token ?? stored
            case .password:
                guard let password = password() else {
                    throw Failure(.authentication, "this config authenticates chat with the password (chatAuth: password)",
                                  hint: "set CHATCTL_PASSWORD or pass --password-file PATH")
                }
                return password
            }
        }
    }
}
