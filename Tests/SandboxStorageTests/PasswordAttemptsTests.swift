import Testing
@testable import SandboxStorage

@Suite struct PasswordAttemptsTests {
    @Test func theLimitThenRetryAfterUntilTheOldestLeavesTheWindow() {
        var attempts = PasswordAttempts(limit: 3, window: 60)
        for t in [0.0, 10, 20] {
            #expect(attempts.retryAfter(userId: 7, now: t) == nil)
            attempts.recordFailure(userId: 7, now: t)
        }
        #expect(attempts.retryAfter(userId: 7, now: 20) == 40)
        #expect(attempts.retryAfter(userId: 7, now: 59.5) == 1)
        #expect(attempts.retryAfter(userId: 8, now: 30) == nil, "another user is not limited")
        #expect(attempts.retryAfter(userId: 7, now: 60) == nil, "the oldest has left the window")
    }

    @Test func memoryStaysBoundedUnderASprayOfUsers() {
        var attempts = PasswordAttempts(limit: 10, window: 60)
        for id in 0..<20_000 { attempts.recordFailure(userId: id, now: Double(id) / 100) }
        #expect(attempts.trackedUsers <= 10_001)
    }

    @Test func theDatabaseCountsOnlyWrongPasswordsAndKeepsEachHashsRounds() throws {
        let database = try SandboxDatabase(path: nil, tokenTTL: 60)
        database.passwordAttempts = PasswordAttempts(limit: 2, window: 60)
        let early = try database.insertUser(NewUser(login: "early", password: "password-1")).id
        database.passwordIterations = 20_000
        let later = try database.insertUser(NewUser(login: "later", password: "password-2")).id
        #expect(try database.verifyPassword(userId: early, "password-1") == .accepted)
        #expect(try database.verifyPassword(userId: later, "password-2") == .accepted)
        let rounds = try database.db.query("SELECT password_iterations FROM users ORDER BY id") { $0.int(0) }
        #expect(rounds == [10_000, 20_000])
        #expect(try database.verifyPassword(userId: early, "nope") == .refused)
        #expect(try database.verifyPassword(userId: early, "nope") == .refused)
        guard case .throttled(let seconds) = try database.verifyPassword(userId: early, "password-1") else {
            Issue.record("the right password is not checked once limited")
            return
        }
        #expect((1...60).contains(seconds))
        #expect(database.checkChatCredentials(userId: early, secret: "password-1") == .throttled)
        #expect(database.checkChatCredentials(userId: later, secret: "password-2") == .accepted)
    }
}
