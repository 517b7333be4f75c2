import Testing
import Messaging

/// docs/protocol.md §2: listen refreshes its session once half of what is left is gone.
@Suite struct SessionRefreshScheduleTests {
    @Test func dueAtOnceUntilTheFirstAnswer() {
        let schedule = SessionRefreshSchedule()
        #expect(schedule.isDue(at: 1000))
    }

    @Test(arguments: [(7200.0, 3600.0), (2.0, 1.0), (600.0, 300.0)])
    func halfOfTheRemainingLifetime(remaining: Double, interval: Double) {
        var schedule = SessionRefreshSchedule()
        schedule.refreshed(at: 1000, expiresAt: 1000 + remaining)
        #expect(schedule.dueAt == 1000 + interval)
        #expect(!schedule.isDue(at: 1000 + interval - 0.01))
        #expect(schedule.isDue(at: 1000 + interval))
        #expect(schedule.secondsUntilDue(at: 1000) == interval)
    }

    @Test(arguments: [0.5, 0.0, -7200.0])
    func neverSoonerThanASecondEvenWhenTheExpiryLooksPast(remaining: Double) {
        var schedule = SessionRefreshSchedule()
        schedule.refreshed(at: 1000, expiresAt: 1000 + remaining)
        #expect(schedule.dueAt == 1000 + SessionRefreshSchedule.minimumInterval)
    }

    @Test func aFailureIsRetriedWithinFiveSecondsOrSoonerNearTheEnd() {
        var schedule = SessionRefreshSchedule()
        schedule.failed(at: 1000, expiresAt: 1000 + 3600)
        #expect(schedule.dueAt == 1005)
        schedule.failed(at: 1000, expiresAt: 1000 + 8)
        #expect(schedule.dueAt == 1002)
        schedule.failed(at: 1000, expiresAt: 990)
        #expect(schedule.dueAt == 1001)
    }

    /// `send --lines` goes on without a session it cannot keep: asking every second would be a
    /// request a second for nothing, so a refusal waits a minute.
    @Test func aRefusalIsAskedAgainAfterAMinute() {
        var schedule = SessionRefreshSchedule()
        schedule.refused(at: 1000)
        #expect(!schedule.isDue(at: 1059))
        #expect(schedule.isDue(at: 1000 + SessionRefreshSchedule.refusedInterval))
        #expect(SessionRefreshSchedule.refusedInterval == 60)
    }

    @Test func theTestAndBenchCapWins() {
        var schedule = SessionRefreshSchedule(maximumInterval: 0.02)
        schedule.refreshed(at: 1000, expiresAt: 1000 + 7200)
        #expect(schedule.dueAt == 1000.02)
        schedule.failed(at: 1000, expiresAt: 1000 + 7200)
        #expect(schedule.dueAt == 1000.02)
    }
}
