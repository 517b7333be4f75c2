import Testing
@testable import ChatView

/// A contact request in the chat view (ContactRequests.swift): a notice naming the requester
/// while it waits, `/accept` and `/reject` answering it (the oldest, or one picked by name),
/// and the notice gone once answered or withdrawn.
@Suite struct ContactRequestTests {
    typealias F = Fixture

    static func asked(width: Int = 80, height: Int = 24) -> F.Session {
        var session = Scenes.deploy(width: width, height: height, short: true)
        session.send(.contactRequest(userID: F.carol, waiting: true))
        return session
    }

    static func answers(_ effects: [ScreenEffect]) -> [ScreenEffect] {
        effects.filter { if case .answerContact = $0 { true } else { false } }
    }

    @Test(arguments: [
        ("contact request 80×24", asked().screen, ContactRequestGoldens.asked80x24),
        ("contact request 40×12", asked(width: 40, height: 12).screen, ContactRequestGoldens.asked40x12),
    ])
    func screen(name: String, screen: String, golden: String) {
        expectGolden(name, screen: screen, golden: golden)
    }

    @Test func slashAcceptAnswersTheRequestAndTheNoticeGoes() {
        var session = Self.asked()
        #expect(session.screen.contains("carol asks to be your contact: /accept or /reject"))
        session.type("/accept")
        #expect(Self.answers(session.send(.key(.enter))) == [.answerContact(userID: F.carol, accept: true)])
        #expect(session.model.contactRequests.isEmpty)
        #expect(session.model.input.isEmpty, "a command, not a message")
        #expect(session.model.notice == "accepted carol's contact request")
        _ = session.advance(ScreenUpdate.noticeShownFor + 1)
        #expect(!session.screen.contains("contact"))
    }

    @Test func aNamePicksOneOfSeveralAndAnUnknownNameAnswersNone() {
        var session = Self.asked()
        session.send(.contactRequest(userID: F.bob, waiting: true))
        #expect(session.model.contactRequestNotice == "carol and 1 other ask to be your contacts: /accept or /reject (a name after them picks one)")
        session.type("/reject dave")
        #expect(Self.answers(session.send(.key(.enter))).isEmpty)
        #expect(session.model.notice == "/reject: nobody named dave asks to be your contact")
        session.type("/reject @Bo")
        #expect(Self.answers(session.send(.key(.enter))) == [.answerContact(userID: F.bob, accept: false)])
        #expect(session.model.contactRequests == [F.carol])
    }

    @Test func aWithdrawnRequestGoesAndWithNoneSlashAcceptSaysSo() {
        var session = Self.asked()
        session.send(.contactRequest(userID: F.carol, waiting: false))
        #expect(session.model.contactRequestNotice == nil)
        session.type("/accept")
        #expect(Self.answers(session.send(.key(.enter))).isEmpty)
        #expect(session.model.notice == "/accept: nobody asks to be your contact")
    }

    @Test func theHelpListsTheCommands() {
        let keys = HelpOverlay.lines(unicode: true).map(\.keys)
        #expect(keys.contains("/accept [NAME]") && keys.contains("/reject [NAME]"))
    }
}

enum ContactRequestGoldens {
    static let asked80x24 =
    """
     bob · private · connected                                 ✉ 2 unread elsewhere
    ────────────────────────────────────────────────────────────────────────────────
                                                  ╭───────────────────────────────╮
                                                  │ fixed it, the cache was stale │
                                                  ╰───────────────────────────────╯
                                                                           17:53 ✓✓
                                    ── Mon 30 Nov ──
     bob
     ╭────────────────────────╮
     │ did the deploy finish? │
     ╰────────────────────────╯
     16:49
                                    ╭─────────────────────────────────────────────╮
                                    │ yes, all green. logs in the thread, and the │
                                    │ canary has been at 100% for an hour now     │
                                    ╰─────────────────────────────────────────────╯
                                                                           16:51 ✓✓
                                                   ╭──────────────────────────────╮
                                                   │ what about the db migration? │
                                                   ╰──────────────────────────────╯
                                                                     16:51 sending…
     carol asks to be your contact: /accept or /reject
    ─ bob is typing… ───────────────────────────────────────────────────────────────
    >                                                Tab select · /attach · F1 help
    """
    static let asked40x12 =
    """
     bob · connected                    ✉ 2
    ────────────────────────────────────────
                                   16:51 ✓✓
                      ╭───────────────────╮
                      │ what about the db │
                      │ migration?        │
                      ╰───────────────────╯
                             16:51 sending…
     carol asks to be your contact: /accept
     or /reject
    ─ bob is typing… ───────────────────────
    >                            Tab select
    """
}
