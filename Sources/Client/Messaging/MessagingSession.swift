#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthFlow
import ClientConfiguration
import Diagnostics
import MessageCache
import QuickBloxAPI

/// A logged-in user and the path of their cache, not yet opened.
package struct CacheLogin {
    package let config: ClientConfig
    package let session: StoredSession
    package let client: QuickBloxClient
    package let cachePath: String

    package init(config: ClientConfig, session: StoredSession, client: QuickBloxClient, cachePath: String) {
        self.config = config; self.session = session; self.client = client; self.cachePath = cachePath
    }

    package func session(with cache: ChatCache) -> MessagingSession {
        MessagingSession(config: config, session: session,
                         service: MessagingService(api: client, cache: cache, me: session.userId))
    }

    /// The cache opened (made, or migrated, as needed) and the session's messaging service over it.
    package func openSession() throws(Failure) -> MessagingSession {
        do { return session(with: try ChatCache(path: cachePath)) } catch { throw Failure(cache: error) }
    }

    /// What state the cache file is in, read without opening it as `openSession` does (a
    /// damaged file is reported, not refused).
    package func checkCache() -> CacheCheckReport { ChatCache.check(path: cachePath) }

    /// A new cache with the old one's outbox, the old file moved aside (`ChatCache.rebuild`),
    /// and the session's messaging service over it, to be filled from the server.
    package func rebuildCache(now: Int) throws(Failure) -> (MessagingSession, CacheRebuildReport) {
        do {
            let (cache, report) = try ChatCache.rebuild(path: cachePath, now: now)
            return (session(with: cache), report)
        } catch {
            throw Failure(cache: error)
        }
    }
}

/// The config, the saved session and the messaging service of the logged-in user.
package struct MessagingSession {
    package let config: ClientConfig
    package let session: StoredSession
    package let service: MessagingService

    package init(config: ClientConfig, session: StoredSession, service: MessagingService) {
        self.config = config; self.session = session; self.service = service
    }
}

extension ChatLink {
    /// A token with less life left than this is checked over REST before chat connects with it.
    static let tokenMargin = 60.0

    /// The chat connection of a messaging session. At each connect: with `chatAuth: token` the
    /// session token as it is then, checked over REST first when it may have expired, which
    /// renews it if it is gone (chat itself cannot say why it refuses one; docs/protocol.md
    /// §2, §7); with `chatAuth: password`, what `password` gives.
    package static func make(for messaging: MessagingSession, verboseLog: (@Sendable (String) -> Void)?,
                     password: @escaping () -> String?) -> ChatLink {
        let (config, api, stored) = (messaging.config, messaging.service.api, messaging.session.token)
        return ChatLink(config: config, me: messaging.session.userId, verboseLog: verboseLog) { () throws(Failure) -> String in
            switch config.chatAuth {
            case .token:
                if (api.tokenExpiresAt?.timeIntervalSinceNow ?? 0) < Self.tokenMargin {
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
