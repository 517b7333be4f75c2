import MessageCache
import QuickBloxAPI
import TestSupport
@testable import Messaging

/// A messaging service for user 1 over a scripted REST server and a fresh cache.
final class ScriptedService {
    static let me = 1
    let directory: TemporaryDirectory
    let transport: ScriptedTransport
    let service: MessagingService

    /// `retryPolicy`: `.immediate` to see the client's retries without their waits.
    /// `now`: the service's clock (Unix seconds), for what depends on age.
    init(_ script: [ScriptedTransport.Reply] = [], retryPolicy: RetryPolicy = .never, now: (@Sendable () -> Int)? = nil) throws {
        directory = try TemporaryDirectory()
        transport = ScriptedTransport(script)
        let api = QuickBloxClient(apiEndpoint: "http://127.0.0.1:9", credentials: AppCredentials(applicationId: 1, authKey: "k", authSecret: "s"),
                                  transport: transport)
        api.retryPolicy = retryPolicy
        api.token = "tok"
        let cache = try ChatCache(path: directory.file("cache.sqlite"))
        service = now.map { MessagingService(api: api, cache: cache, me: Self.me, now: $0) } ?? MessagingService(api: api, cache: cache, me: Self.me)
    }
}
