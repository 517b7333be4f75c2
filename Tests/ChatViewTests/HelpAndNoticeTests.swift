import Foundation
import Testing
@testable import ChatView

/// The help overlay (`/help`, F1) and notices: wrapped to two rows above the input,
/// never cut inside a word nor prefixed twice, gone with the next key.
@Suite struct HelpAndNoticeTests {
    typealias F = Fixture

    static func help(width: Int = 80, height: Int = 24, top: Int = 0) -> F.Session {
        var session = Scenes.deploy(width: width, height: height, short: true)
        session.type("/help")
        session.send(.key(.enter))
        for _ in 0..<top { session.send(.key(.down)) }
        return session
    }

    static func notice(width: Int = 80, height: Int = 24) -> F.Session {
        var session = Scenes.deploy(width: width, height: height, short: true)
        session.send(.notice("cannot attach /home/alice/photos: it is a directory (attach the files in it one by one, or an archive of it)"))
        return session
    }

    @Test(arguments: [
        ("help 80×24", help().screen, HelpGoldens.help80x24),
        ("help 40×12", help(width: 40, height: 12).screen, HelpGoldens.help40x12),
        ("help 40×12 scrolled", help(width: 40, height: 12, top: 60).screen, HelpGoldens.help40x12Scrolled),
        ("notice 80×24", notice().screen, HelpGoldens.notice80x24),
        ("notice 40×12", notice(width: 40, height: 12).screen, HelpGoldens.notice40x12),
    ])
    func screen(name: String, screen: String, golden: String) {
        expectGolden(name, screen: screen, golden: golden)
    }

    @Test func slashHelpAndF1OpenItEscClosesItAndKeysDoNotReachTheInput() {
        var session = Self.help()
        #expect(session.model.help != nil)
        #expect(session.model.input.isEmpty, "/help is a command, not a message")
        #expect(!session.effects.contains { if case .send = $0 { true } else { false } })
        session.type("hello")
        #expect(session.model.input.isEmpty, "typing goes nowhere while the help shows")
        session.send(.key(.escape))
        #expect(session.model.help == nil)
        #expect(session.model.screen == .conversation, "Esc closed the help, not the view")
        #expect(!session.effects.contains(.quit(interrupted: false)))
        session.send(.key(.function(1)))
        #expect(session.model.help != nil)
        session.send(.key(.function(1)))
        #expect(session.model.help == nil)
    }

    @Test func theHelpScrollsOnASmallScreenAndStopsAtItsEnd() {
        var session = Self.help(width: 40, height: 12)
        let (visible, count) = HelpOverlay.extent(width: 40, height: 12, unicode: true)
        #expect(visible < count)
        session.send(.key(.end))
        #expect(session.model.help?.top == count - visible)
        session.send(.key(.down))
        #expect(session.model.help?.top == count - visible)
        #expect(session.screen.contains("quit"), "the last lines show")
    }

    @Test func aLongNoticeWrapsToTwoRowsBetweenWordsAndTheNextKeyClearsIt() throws {
        var session = Self.notice(width: 40, height: 12)
        let rows = session.screen.components(separatedBy: "\n")
        let first = try #require(rows.firstIndex { $0.contains("cannot attach") })
        #expect(rows[first].hasPrefix(" cannot attach /home/alice/photos: it"))
        #expect(rows[first + 1].hasSuffix(" …"), "cut after a whole word: \(rows[first + 1])")
        #expect(session.screen.components(separatedBy: "cannot attach").count == 2, "said once")
        #expect(!rows[0].contains("cannot"), "not squeezed into the status line")
        session.type("o")
        #expect(session.model.notice == nil)
        #expect(!session.screen.contains("cannot attach"))
    }

    @Test func aShortNoticeIsOneRow() {
        var session = Scenes.deploy(short: true)
        session.send(.key(.tab))
        session.send(.key(.character("d")))
        let rows = session.screen.components(separatedBy: "\n")
        let notice = rows.filter { $0.contains("this message has no attachment") }
        #expect(notice.count == 1)
    }
}

extension HelpAndNoticeTests {
    /// An overlay hides what the edge would write over its cells: links and pictures.
    @Test func underTheHelpNoLinkNorPictureIsWrittenAndNoCursorShows() throws {
        var session = Scenes.deploy(short: true)
        session.send(.messagesArrived([F.message(9000, from: F.bob, "see https://example.com/x", at: F.t0 + 40, read: false)]))
        #expect(!ScreenRenderer().render(session.model).links.isEmpty)
        session.type("/help")
        session.send(.key(.enter))
        let grid = ScreenRenderer().render(session.model)
        #expect(grid.links.isEmpty && grid.images.isEmpty)
        #expect(grid.cursor == nil)
    }
}
