import Synchronization

/// Outbox entries claimed by several threads.
final class Claims: Sendable {
    private let ids = Mutex<[String]>([])
    func add(_ more: [String]) { ids.withLock { $0 += more } }
    var all: [String] { ids.withLock { $0 } }
}
