import Testing
@testable import SandboxStorage

/// Wrong passwords counted per client address too (docs/protocol.md §4): one address may not
/// try one password against every user, each once.
@Suite struct AddressPasswordAttemptsTests {
    @Test func oneAddressAgainstManyUsersIsLimitedAnotherIsNot() {
        var attempts = PasswordAttempts(limit: 10, window: 60, addressLimit: 3)
        for (user, t) in zip([1, 2, 3], [0.0, 5, 10]) {
            #expect(attempts.retryAfter(address: "10.0.0.9", now: t) == nil)
            attempts.recordFailure(userId: user, now: t)
            attempts.recordFailure(address: "10.0.0.9", now: t)
        }
        #expect(attempts.retryAfter(address: "10.0.0.9", now: 10) == 50)
        #expect(attempts.retryAfter(userId: 4, now: 10) == nil, "each user alone is under its limit")
        #expect(attempts.retryAfter(address: "10.0.0.8", now: 10) == nil, "another address is not limited")
        #expect(attempts.retryAfter(address: "10.0.0.9", now: 60) == nil, "the oldest has left the window")
    }

    @Test func memoryStaysBoundedUnderASprayOfAddresses() {
        var attempts = PasswordAttempts(limit: 10, window: 60, addressLimit: 10)
        for n in 0..<20_000 { attempts.recordFailure(address: "10.\(n / 65_536).\(n / 256 % 256).\(n % 256)", now: Double(n) / 100) }
        #expect(attempts.trackedAddresses <= 10_001)
    }

    @Test func theDatabaseCountsWrongPasswordsAndUnknownLoginsByAddressNotRightOnes() throws {
        let database = try SandboxDatabase(path: nil, tokenTTL: 60)
        database.passwordAttempts = PasswordAttempts(limit: 10, window: 60, addressLimit: 3)
        let ids = try (1...4).map { try database.insertUser(NewUser(login: "user\($0)", password: "password-\($0)")).id }
        // Right passwords from the flooding address count for nothing.
        for _ in 0..<5 { #expect(try database.verifyPassword(userId: ids[0], "password-1", from: "127.0.0.1") == .accepted) }
        #expect(try database.verifyPassword(userId: ids[0], "guess-1", from: "127.0.0.1") == .refused)
        #expect(database.refuseUnknownLogin(from: "127.0.0.1") == .refused)
        #expect(database.checkChatCredentials(userId: ids[1], secret: "guess-1", from: "127.0.0.1") == .refused)
        guard case .throttled(let seconds) = try database.verifyPassword(userId: ids[3], "password-4", from: "127.0.0.1") else {
            Issue.record("a fourth user's right password is checked from an address with three wrong ones")
            return
        }
        #expect((1...60).contains(seconds))
        #expect(database.checkChatCredentials(userId: ids[3], secret: "password-4", from: "127.0.0.1") == .throttled)
        #expect(database.refuseUnknownLogin(from: "127.0.0.1") == .throttled(retryAfter: seconds))
        #expect(try database.verifyPassword(userId: ids[3], "password-4", from: "127.0.0.2") == .accepted)
        #expect(try database.verifyPassword(userId: ids[3], "password-4") == .accepted, "no address: per user only")
        // A session token is no guess: it opens the chat from the limited address too.
        let session = try database.createSession(applicationId: 1, userId: ids[3], nonce: 1, timestamp: 1)
        #expect(database.checkChatCredentials(userId: ids[3], secret: session.token, from: "127.0.0.1") == .accepted)
    }

    /// The sandbox exempts loopback as an address (docs/protocol.md §4): a test suite's clients all
    /// share it. Its wrong passwords still count against each user.
    @Test func anExemptAddressIsLimitedPerUserOnly() {
        var attempts = PasswordAttempts(limit: 2, window: 60, addressLimit: 3, exempting: { $0 == "127.0.0.1" })
        for user in 1...5 {
            attempts.recordFailure(userId: user, now: 0)
            attempts.recordFailure(address: "127.0.0.1", now: 0)
        }
        #expect(attempts.retryAfter(address: "127.0.0.1", now: 1) == nil, "five users' mistakes from it: not limited as an address")
        #expect(attempts.trackedAddresses == 0)
        #expect(attempts.retryAfter(userId: 6, now: 1) == nil)
        attempts.recordFailure(userId: 1, now: 1)
        #expect(attempts.retryAfter(userId: 1, now: 1) == 59, "two wrong passwords of one user: that user waits, loopback or not")
    }

    /// A client that reconnects with the session token it logged in with, after the session ended,
    /// guesses nothing: however often it tries, the user's password still opens the chat.
    @Test func anEndedSessionTokenIsRefusedWithoutCountingAsAWrongPassword() throws {
        let database = try SandboxDatabase(path: nil, tokenTTL: 60)
        database.passwordAttempts = PasswordAttempts(limit: 3, window: 60, addressLimit: 3)
        let id = try database.insertUser(NewUser(login: "reconnecting", password: "password-1")).id
        let session = try database.createSession(applicationId: 1, userId: id, nonce: 1, timestamp: 1)
        #expect(database.checkChatCredentials(userId: id, secret: session.token, from: "10.0.0.9") == .accepted)
        try database.deleteSession(id: session.id)
        for _ in 0..<20 {
            #expect(database.checkChatCredentials(userId: id, secret: session.token, from: "10.0.0.9") == .refused)
        }
        #expect(database.checkChatCredentials(userId: id, secret: "password-1", from: "10.0.0.9") == .accepted)
        // Text of a token's shape that is no token is still checked as the password it may be.
        let tokenShaped = String(repeating: "ab", count: 20)
        let other = try database.insertUser(NewUser(login: "hexpassword", password: tokenShaped)).id
        #expect(database.checkChatCredentials(userId: other, secret: tokenShaped, from: "10.0.0.9") == .accepted)
    }
}
