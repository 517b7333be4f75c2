import Testing
@testable import ChatView

/// The config's `chatView` settings in the layout, the renderer and the update:
/// time formats, initials, image avatars asked for and drawn, colours.
@Suite struct ChatViewSettingsTests {
    typealias F = Fixture
    typealias S = SettingsScenes

    @Test(arguments: [
        ("HH:mm", 16 * 3600 + 51 * 60, "16:51"),
        ("h:mm a", 16 * 3600 + 51 * 60, "4:51 PM"),
        ("h:mm a", 5 * 60, "12:05 AM"),
        ("hh.mm", 9 * 3600 + 7 * 60, "09.07"),
        ("H:mm:ss", 9 * 3600 + 7 * 60 + 3, "9:07:03"),
    ])
    func aTimeFormatSpellsTheTime(pattern: String, seconds: Int, expected: String) throws {
        let format = try #require(TimeFormat(pattern: pattern))
        #expect(TimeLabels.utc.time(seconds, as: format) == expected)
    }

    @Test(arguments: ["x", "", "::", "HH:mm x", "HHH", "yyyy"])
    func aPatternWithALetterThatIsNoFieldIsRefused(pattern: String) {
        #expect(TimeFormat(pattern: pattern) == nil)
    }

    @Test func timesFollowTheFormatUnderCells() {
        let session = S.deploy(S.settings { $0.timeFormat = TimeFormat(pattern: "h:mm a")! }, short: true)
        #expect(session.screen.contains(" 4:49 PM\n"))
        #expect(session.screen.contains("4:51 PM ✓✓"))
        #expect(!session.screen.contains("16:49"))
    }

    @Test(arguments: [("alice Q", "AQ"), ("bob", "B"), ("李雷", "李"), ("", "?"), ("élan vital", "ÉV"), ("  carol  ann  q ", "CA")])
    func initialsAreTheFirstLettersOfTheFirstTwoWords(name: String, initials: String) {
        #expect(AvatarBadge.initials(of: name, unicode: true) == initials)
    }

    @Test func anInitialsBadgeIsASquareOnTheSendersColour() throws {
        let grid = ScreenRenderer().render(S.avatars().model)
        let row = try #require((0..<grid.height).first { grid.text(row: $0).hasPrefix("  CQ  ╭") })
        let badge = (1...4).map { grid[row, $0].style }
        #expect(Set(badge).count == 1, "one style across the square")
        #expect(badge[0].background != nil && badge[0].foreground == 231)
        #expect(grid[row + 1, 1].style == badge[0], "two rows tall")
        #expect(grid[row + 2, 1].style.background == nil, "and no more")
        let bob = try #require((0..<grid.height).first { grid.text(row: $0).hasPrefix("  B   ╭") })
        #expect(grid[bob, 1].style.background != badge[0].background, "each sender a colour of their own")

        let plain = ScreenRenderer().render(S.avatars(profile: RenderProfile(unicode: true, colors: 0, images: .none)).model)
        let plainRow = try #require((0..<plain.height).first { plain.text(row: $0).hasPrefix("  CQ  ╭") })
        #expect(plain[plainRow, 1].style.reverse && plain[plainRow, 1].style.background == nil)
    }

    @Test func imageAvatarsAreAskedForOnceThenDrawnBesideTheCell() throws {
        let profile = RenderProfile(unicode: true, colors: 256, images: .symbols)
        // Opened: each sender whose run starts on the screen is asked for once.
        var session = S.avatars(avatars: .image, profile: profile)
        let asked = session.model.avatars
        #expect(asked.state(of: F.carol) == .asked && asked.state(of: F.bob) == .asked && asked.state(of: F.me) == nil)
        #expect(session.effects.filter { if case .fetchAvatar = $0 { true } else { false } }.count == 2)
        session.effects.removeAll()
        session.send(.key(.pageUp))
        session.send(.key(.pageDown))
        #expect(!session.effects.contains { if case .fetchAvatar = $0 { true } else { false } }, "asked once: \(session.effects)")

        // Carol's file comes: its picture is asked for, drawn, and shown beside her cell.
        let effects = session.send(.avatarFetched(userID: F.carol, path: "/state/avatars/3-7"))
        let request = AvatarBadge.request(path: "/state/avatars/3-7", profile: profile)
        #expect(effects.contains(.drawPreview(request)))
        #expect(request.room == CellBox(columns: 4, rows: 2) && request.profile.images == .symbols)
        #expect(session.screen.contains("  CQ  ╭"), "the initials until it is drawn")
        let red = Cell("▀", style: CellStyle(foreground: 196, background: 21))
        session.send(.previewDrawn(request, .cells(Array(repeating: Array(repeating: red, count: 4), count: 2), box: CellBox(columns: 4, rows: 2))))
        let grid = ScreenRenderer().render(session.model)
        let row = try #require((0..<grid.height).first { grid.text(row: $0).contains("the build is red again") }) - 1
        #expect((1...4).allSatisfy { grid[row, $0] == red && grid[row + 1, $0] == red })
        #expect(grid.text(row: row).hasPrefix(" ▀▀▀▀ ╭"))

        // Bob has none: his initials stay, and nothing more is asked.
        #expect(session.send(.avatarFetched(userID: F.bob, path: nil)).isEmpty)
        #expect(session.screen.contains("  B   ╭"))

        // Back after the connection was lost: those without a picture are asked again, once.
        session.send(.connection(.offline("connection reset", retryAt: nil)))
        let again = session.send(.connection(.connected))
        #expect(again.filter { if case .fetchAvatar = $0 { true } else { false } } == [.fetchAvatar(userID: F.bob)])
        #expect(session.model.avatars.path(of: F.carol) == "/state/avatars/3-7", "a picture fetched stays")
    }

    @Test func noPicturesAreAskedForWithInitialsOrWithoutImages() {
        let initials = S.avatars(avatars: .initials, profile: RenderProfile(unicode: true, colors: 256, images: .symbols))
        let none = S.avatars(avatars: .image, profile: RenderProfile(unicode: true, colors: 256, images: .none))
        for session in [initials, none] {
            #expect(session.model.avatars.state(of: F.carol) == nil)
            #expect(session.screen.contains("  CQ  ╭"))
        }
    }

    @Test func configuredColoursDrawNamesTimesStatesAndBorders() throws {
        let colors = ViewColors(incoming: 100, outgoing: 101, names: 102, times: 103, states: 104)
        let session = S.deploy(S.settings { $0.colors = colors }, short: true)
        let grid = ScreenRenderer().render(session.model)
        func cell(_ text: String, offset: Int = 0) throws -> Cell {
            let row = try #require((2..<grid.height).first { grid.text(row: $0).contains(text) })
            let column = try #require((0..<grid.width).first { grid[row, $0].text == String(text.first!) && grid.text(row: row).dropFirst($0).hasPrefix(text) })
            return grid[row, column + offset]
        }
        #expect(try cell("bob").style.foreground == 102)
        #expect(try cell("16:49").style.foreground == 103)
        #expect(try cell("│ did").style.foreground == 100)
        #expect(try cell("│ fixed").style.foreground == 101)
        #expect(try cell("sending…").style.foreground == 104)
        #expect(try cell("17:53 ✓✓", offset: 6).style.foreground == 45, "read keeps its highlight")

        // Eight colours: a palette number beyond them is left to the theme.
        var eight = S.deploy(S.settings { $0.colors = ViewColors(names: 200, times: 3) }, short: true)
        eight.model.profile = RenderProfile(unicode: true, colors: 8, images: .none)
        let small = ScreenRenderer().render(eight.model)
        let nameRow = try #require((0..<small.height).first { small.text(row: $0).hasPrefix(" bob") })
        let timeRow = try #require((0..<small.height).first { small.text(row: $0).hasPrefix(" 16:49") })
        #expect(small[nameRow, 1].style.foreground == nil && small[timeRow, 1].style.foreground == 3)
    }
}
