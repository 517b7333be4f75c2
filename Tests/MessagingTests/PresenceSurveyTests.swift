import Testing
import Diagnostics
import XMPPTransport
@testable import Messaging

/// `chatctl users`' PRESENCE, as `PresenceSurvey` learns it: a last activity of 0
/// is online, of N seconds a time last seen, `item-not-found` never seen (offline), and a
/// refusal (no shared dialog) nothing at all; presence heard counts as online.
@Suite struct PresenceSurveyTests {
    @Test func answersBecomePresenceAndARefusalIsNothing() {
        var survey = PresenceSurvey(asking: [2, 3, 4, 5], now: 10_000)
        survey.record(.lastActivity(LastActivity(userID: 2, seconds: 0)))
        survey.record(.lastActivity(LastActivity(userID: 3, seconds: 300)))
        survey.record(.lastActivity(LastActivity(userID: 4, seconds: nil, errorCondition: "item-not-found")))
        #expect(!survey.isComplete)
        survey.record(.lastActivity(LastActivity(userID: 5, seconds: nil, errorCondition: "forbidden")))
        #expect(survey.isComplete)
        #expect(survey.found == [2: .online, 3: .lastSeen(at: 9_700), 4: .offline])
    }

    @Test func presenceHeardIsOnlineAndOutlivesAStaleAnswer() {
        var survey = PresenceSurvey(asking: [2, 3], now: 10_000)
        survey.record(.presence(UserPresence(userID: 2, resource: "web", isAvailable: true)))
        survey.record(.presence(UserPresence(userID: 3, resource: "web", isAvailable: false)))
        survey.record(.lastActivity(LastActivity(userID: 2, seconds: 60)))
        survey.record(.lastActivity(LastActivity(userID: 9, seconds: 0)))
        #expect(survey.found == [2: .online])
        #expect(survey.waiting == [3], "an answer for someone not asked settles nothing")
    }

    @Test func runAsksEachUserButUsAndDisconnects() throws {
        let link = ScriptedChatLink(me: 1)
        link.incoming = [
            .lastActivity(LastActivity(userID: 2, seconds: 0)),
            .lastActivity(LastActivity(userID: 3, seconds: 120)),
        ]
        let found = try PresenceSurvey.run(over: link, users: [3, 1, 2], timeout: 1, now: 5_000)
        #expect(link.lastActivityAsked == [2, 3])
        #expect(found == [2: .online, 3: .lastSeen(at: 4_880)])
        #expect(!link.isConnected)
        #expect(link.onEvent == nil)
    }

    @Test func aConnectThatFailsIsThrown() {
        let link = ScriptedChatLink(me: 1)
        link.connects = [Failure(.temporary, "chat connect to localhost:1 failed: connection refused")]
        #expect(throws: Failure.self) { try PresenceSurvey.run(over: link, users: [2], timeout: 1, now: 0) }
        #expect(link.lastActivityAsked.isEmpty)
    }
}
