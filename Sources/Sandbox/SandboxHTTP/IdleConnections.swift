/// The connections of one port that hold a place without being of use yet (not logged in,
/// or between HTTP requests), oldest first per address, with the caps that bound them. A
/// new one past a cap costs the oldest its place, not itself: on loopback every client
/// shares one address, so refusing the newest would turn away the client that came to
/// work while a flood keeps its sockets (docs/protocol.md §7).
package struct IdleConnections<Key: Hashable> {
    /// Idle connections one address may hold.
    package let perAddress: Int
    /// Idle connections all addresses together may hold.
    package let overall: Int
    /// When each idle connection became idle (a counter, not a clock), by address.
    private var byAddress: [String: [Key: UInt64]] = [:]
    private var addressOf: [Key: String] = [:]
    private var clock: UInt64 = 0
    /// Connections evicted since one last became idle without costing another its place:
    /// a flood's running count.
    package private(set) var evictedInARow = 0
    /// After `becameIdle`: the running count when its evictions are worth a log line (the
    /// first of a flood, then the first of each hundred: a flood logs a few lines, not one per
    /// connection), else nil. Every port logs its floods by this one rule.
    package private(set) var evictionsToLog: Int?

    package init(perAddress: Int, overall: Int = .max) {
        precondition(perAddress >= 1 && overall >= 1, "a cap admits at least one connection")
        self.perAddress = perAddress
        self.overall = overall
    }

    /// Idle connections, all addresses together.
    package var count: Int { addressOf.count }

    /// Idle connections from `address`.
    package func count(from address: String) -> Int { byAddress[address]?.count ?? 0 }

    package func contains(_ key: Key) -> Bool { addressOf[key] != nil }

    /// `key` (from `address`) is idle from now on, as the youngest; returns the connections
    /// that must be closed to stay under the caps, oldest first (never `key`). They no
    /// longer count.
    package mutating func becameIdle(_ key: Key, address: String) -> [Key] {
        remove(key)
        clock += 1
        byAddress[address, default: [:]][key] = clock
        addressOf[key] = address
        var evicted: [Key] = []
        while count(from: address) > perAddress, let oldest = oldest(from: address, sparing: key) {
            remove(oldest)
            evicted.append(oldest)
        }
        while count > overall, let oldest = oldestAnywhere(sparing: key) {
            remove(oldest)
            evicted.append(oldest)
        }
        let before = evictedInARow
        evictedInARow = evicted.isEmpty ? 0 : before + evicted.count
        evictionsToLog = !evicted.isEmpty && (before == 0 || before / 100 != evictedInARow / 100) ? evictedInARow : nil
        return evicted
    }

    /// `key` is no longer idle: it logged in, is being served, or is gone.
    package mutating func remove(_ key: Key) {
        guard let address = addressOf.removeValue(forKey: key) else { return }
        byAddress[address]?[key] = nil
        if byAddress[address]?.isEmpty == true { byAddress[address] = nil }
    }

    private func oldest(from address: String, sparing spared: Key) -> Key? {
        byAddress[address]?.filter { $0.key != spared }.min { $0.value < $1.value }?.key
    }

    private func oldestAnywhere(sparing spared: Key) -> Key? {
        var best: (key: Key, since: UInt64)?
        for entries in byAddress.values {
            for (key, since) in entries where key != spared && since < (best?.since ?? .max) { best = (key, since) }
        }
        return best?.key
    }
}

extension IdleConnections: Sendable where Key: Sendable {}
