import Testing
@testable import ChatView

/// Presence in the chat view: the header of a private dialog and of a group, the dialog
/// list's marks, and the words for when someone was last seen.
@Suite struct PresenceViewTests {
    typealias F = Fixture

    @Test(arguments: [
        ("last seen, 80×24", PresenceScenes.privateDialog(.lastSeen(at: F.t0 + 30 - 300)).screen, PresenceGoldens.lastSeen80x24),
        ("online, 40×12", PresenceScenes.privateDialog(.online, width: 40, height: 12).screen, PresenceGoldens.online40x12),
        ("group, 80×24", PresenceScenes.group().screen, PresenceGoldens.group80x24),
        ("group, 40×12", PresenceScenes.group(width: 40, height: 12).screen, PresenceGoldens.group40x12),
        ("dialogs, 80×24", PresenceScenes.dialogs().screen, PresenceGoldens.dialogs80x24),
        ("dialogs, 40×12, LANG=C", PresenceScenes.dialogs(width: 40, height: 12, profile: RenderProfile(unicode: false, colors: 0, images: .none)).screen,
         PresenceGoldens.dialogs40x12Ascii),
    ])
    func screen(name: String, screen: String, golden: String) {
        expectGolden(name, screen: screen, golden: golden)
    }

    @Test(arguments: [
        (20, "just now"), (59, "just now"), (60, "1 min ago"), (5 * 60 + 59, "5 min ago"), (3599, "59 min ago"),
        (3600, "1 h ago"), (16 * 3600 + 50 * 60, "16 h ago"),
        // Fixture.t0 is Mon 30 Nov 2026 16:51 UTC.
        (17 * 3600, "yesterday 23:51"), (40 * 3600 + 51 * 60, "yesterday 00:00"), (41 * 3600, "Sat 28 Nov"),
        (400 * 86_400, "Sun 26 Oct 2025"),
    ])
    func lastSeenWords(ago: Int, words: String) {
        #expect(TimeLabels.utc.lastSeen(F.t0 - ago, now: F.t0) == words)
    }

    @Test func theHeaderFollowsThePeerAndSaysNothingBeforeAnythingIsKnown() {
        var session = Scenes.deploy(short: true)
        let header = { (session: F.Session) in ScreenRenderer().render(session.model).text(row: 0) }
        #expect(header(session).hasPrefix(" bob · private · connected"), "nothing heard yet: as before")
        session.send(.presence(userID: F.bob, .offline))
        #expect(header(session).hasPrefix(" bob · private · offline · connected"))
        session.send(.presence(userID: F.bob, .online))
        #expect(header(session).hasPrefix(" bob · private · online · connected"))
        session.send(.presence(userID: F.bob, .lastSeen(at: Int(session.now) - 30)))
        #expect(header(session).hasPrefix(" bob · private · last seen just now · connected"))
        // The words move on with the clock.
        _ = session.advance(120)
        #expect(header(session).hasPrefix(" bob · private · last seen 2 min ago · connected"))
    }

    @Test func aGroupCountsUsOnlineOnlyWhileConnected() {
        var session = PresenceScenes.group()
        let header = { (session: F.Session) in ScreenRenderer().render(session.model).text(row: 0) }
        #expect(header(session).hasPrefix(" ops · group · 3 members · 2 online"))
        session.send(.connection(.offline("network down", retryAt: nil)))
        #expect(header(session).hasPrefix(" ops · group · 3 members · 1 online"))
        session.send(.presence(userID: F.bob, .lastSeen(at: F.t0)))
        #expect(header(session).hasPrefix(" ops · group · 3 members · 0 online"))
    }

    @Test func theOnlineMarkIsColouredAndOnlyBeforeOnlinePeers() {
        let grid = ScreenRenderer().render(PresenceScenes.dialogs().model)
        let bobRow = (0..<grid.height).first { grid.text(row: $0).contains("bob") }!
        #expect(grid.text(row: bobRow).hasPrefix("●bob"))
        #expect(grid[bobRow, 0].style.foreground == 34)
        let opsRow = (0..<grid.height).first { grid.text(row: $0).contains("ops") }!
        #expect(grid.text(row: opsRow).hasPrefix(" ops"), "a group's members are not marked in the list")
    }
}
