import Foundation
import Testing
@testable import ChatView

/// The conversations of the settings' golden snapshots (the config's `chatView` section).
enum SettingsScenes {
    typealias F = Fixture

    static func settings(_ change: (inout ChatViewSettings) -> Void) -> ChatViewSettings {
        var settings = ChatViewSettings()
        change(&settings)
        return settings
    }

    /// `Scenes.deploy` drawn with `settings`.
    static func deploy(_ settings: ChatViewSettings, width: Int = 80, height: Int = 24, short: Bool = false) -> F.Session {
        var session = Scenes.deploy(width: width, height: height, short: short)
        session.model.settings = settings
        session.send(.olderLoaded(dialogID: F.bobDialog.id, before: session.model.conversation!.messages.first!.cursor, [], exhausted: true))
        return session
    }

    /// A group with initials beside each run: "carol Q" twice (one square for her
    /// run), Bob, then us.
    static func avatars(width: Int = 80, height: Int = 24, avatars: ChatViewSettings.Avatars = .initials,
                        profile: RenderProfile = RenderProfile(unicode: true, colors: 256, images: .none)) -> F.Session {
        let messages = [
            F.message(1, from: F.carol, "the build is red again", at: F.t0 - 300, dialog: F.opsDialog),
            F.message(2, from: F.carol, "that's the error", at: F.t0 - 240, dialog: F.opsDialog),
            F.message(3, from: F.bob, "standup in 5", at: F.t0 - 200, dialog: F.opsDialog),
            F.message(4, from: F.me, "on it", at: F.t0 - 100, dialog: F.opsDialog, delivery: .read),
        ]
        var session = F.opened(F.opsDialog, messages: messages, width: width, height: height, profile: profile)
        session.model.settings = settings { $0.avatars = avatars }
        session.send(.names([F.carol: "carol Q"]))
        session.send(.olderLoaded(dialogID: F.opsDialog.id, before: session.model.conversation!.messages.first!.cursor, [], exhausted: true))
        return session
    }
}
