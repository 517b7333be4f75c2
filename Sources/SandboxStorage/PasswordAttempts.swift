/// Wrong passwords per user: after `limit` of them within `window` seconds, every password
/// for that user is refused unchecked (REST 429 with `Retry-After`, SASL
/// `temporary-auth-failure`) until the oldest leaves the window (docs/protocol.md §2, §7).
/// Session tokens are not limited: a client already logged in carries on. Pure: the clock is passed in.
package struct PasswordAttempts {
    package static let defaultLimit = 10
    package static let defaultWindow = 60.0

    let limit: Int
    let window: Double
    /// When each recent wrong password was given, by user id, oldest first.
    private var failures: [Int: [Double]] = [:]

    package init(limit: Int = PasswordAttempts.defaultLimit, window: Double = PasswordAttempts.defaultWindow) {
        self.limit = max(1, limit)
        self.window = window
    }

    /// Whole seconds until `userId` may give a password again; nil when it may now.
    mutating func retryAfter(userId: Int, now: Double) -> Int? {
        forgetOld(userId: userId, now: now)
        guard let recent = failures[userId], recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((oldest + window - now).rounded(.up)))
    }

    mutating func recordFailure(userId: Int, now: Double) {
        forgetOld(userId: userId, now: now)
        failures[userId, default: []].append(now)
        // Bounded memory under a spray of user ids: drop every user whose failures are all old.
        if failures.count > 10_000 { failures = failures.filter { ($0.value.last ?? 0) > now - window } }
    }

    /// How many users have recent failures (tests check memory stays bounded).
    var trackedUsers: Int { failures.count }

    private mutating func forgetOld(userId: Int, now: Double) {
        guard var recent = failures[userId] else { return }
        recent.removeAll { $0 <= now - window }
        failures[userId] = recent.isEmpty ? nil : recent
    }
}
