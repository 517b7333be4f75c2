import Testing
@testable import ChatView

/// The config's `chatView` section drawn: avatars, the compact layout, hidden labels,
/// against golden text snapshots at 80×24 and 40×12, and what text cannot show.
@Suite struct SettingsGoldenTests {
    typealias F = Fixture
    typealias S = SettingsScenes

    static let compact = S.settings { $0.bubbles = false }
    static let hidden = S.settings { $0.nameLabels = false; $0.timeLabels = false }

    static var scenes: [(String, String)] {
        [
            ("avatars80x24", S.avatars().screen),
            ("avatars40x12", S.avatars(width: 40, height: 12).screen),
            ("compact80x24", S.deploy(compact).screen),
            ("compact40x12", S.deploy(compact, width: 40, height: 12).screen),
            ("hidden80x24", S.deploy(hidden, short: true).screen),
            ("hidden40x12", S.deploy(hidden, width: 40, height: 12).screen),
        ]
    }

    @Test func screens() {
        let goldens = [SettingsGoldens.avatars80x24, SettingsGoldens.avatars40x12, SettingsGoldens.compact80x24,
                       SettingsGoldens.compact40x12, SettingsGoldens.hidden80x24, SettingsGoldens.hidden40x12]
        for ((name, screen), golden) in zip(Self.scenes, goldens) {
            expectGolden(name, screen: screen, golden: golden)
        }
    }
}
