/// Wrong passwords per user and per client address: after `limit` of them for one user, or
/// `addressLimit` from one address (but an exempt one), within `window` seconds, every password for that user or
/// from that address is refused unchecked (REST 429 with `Retry-After`, SASL
/// `temporary-auth-failure`) until the oldest leaves the window (docs/protocol.md §4, §7).
/// Session tokens are not limited: a client already logged in carries on. Pure: the clock is passed in.
package struct PasswordAttempts {
    package static let defaultLimit = 10
    /// Three users' worth: one address may mistype a few users' passwords, not try one
    /// password against every user (docs/protocol.md §4).
    package static let defaultAddressLimit = 30
    package static let defaultWindow = 60.0

    let limit: Int
    let addressLimit: Int
    let window: Double
    /// Addresses not limited as addresses (the sandbox's loopback: docs/protocol.md §4); their
    /// wrong passwords still count against each user.
    let isExempt: (String) -> Bool
    private var byUser: RecentFailures<Int>
    private var byAddress: RecentFailures<String>

    package init(limit: Int = PasswordAttempts.defaultLimit, window: Double = PasswordAttempts.defaultWindow,
                 addressLimit: Int = PasswordAttempts.defaultAddressLimit, exempting isExempt: @escaping (String) -> Bool = { _ in false }) {
        self.limit = max(1, limit)
        self.addressLimit = max(1, addressLimit)
        self.window = window
        self.isExempt = isExempt
        byUser = RecentFailures(window: window)
        byAddress = RecentFailures(window: window)
    }

    /// Whole seconds until `userId` may give a password again; nil when it may now.
    mutating func retryAfter(userId: Int, now: Double) -> Int? {
        byUser.retryAfter(userId, limit: limit, now: now)
    }

    /// Whole seconds until a password from `address` is checked again; nil when it is now.
    mutating func retryAfter(address: String, now: Double) -> Int? {
        isExempt(address) ? nil : byAddress.retryAfter(address, limit: addressLimit, now: now)
    }

    mutating func recordFailure(userId: Int, now: Double) {
        byUser.record(userId, now: now)
    }

    /// A wrong password (or a login nobody has) from `address`.
    mutating func recordFailure(address: String, now: Double) {
        if !isExempt(address) { byAddress.record(address, now: now) }
    }

    /// How many users have recent failures (tests check memory stays bounded).
    var trackedUsers: Int { byUser.count }
    /// How many addresses have recent failures.
    var trackedAddresses: Int { byAddress.count }
}

/// When each recent failure happened, by key (a user id, an address), oldest first.
private struct RecentFailures<Key: Hashable> {
    let window: Double
    private var failures: [Key: [Double]] = [:]

    init(window: Double) { self.window = window }

    var count: Int { failures.count }

    mutating func retryAfter(_ key: Key, limit: Int, now: Double) -> Int? {
        forgetOld(key, now: now)
        guard let recent = failures[key], recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((oldest + window - now).rounded(.up)))
    }

    mutating func record(_ key: Key, now: Double) {
        forgetOld(key, now: now)
        failures[key, default: []].append(now)
        // Bounded memory under a spray of keys: drop every key whose failures are all old.
        if failures.count > 10_000 { failures = failures.filter { ($0.value.last ?? 0) > now - window } }
    }

    private mutating func forgetOld(_ key: Key, now: Double) {
        guard var recent = failures[key] else { return }
        recent.removeAll { $0 <= now - window }
        failures[key] = recent.isEmpty ? nil : recent
    }
}
