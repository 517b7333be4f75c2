import Foundation
import Testing
@testable import ChatView

/// Scenes with presence: a private dialog's peer last seen or online, a group's counts, the
/// dialog list's marks (PresenceGoldens.swift holds their snapshots).
enum PresenceScenes {
    typealias F = Fixture

    /// Everyone in ops: Alice (us), Bob and Carol.
    static let ops = DialogSummary(id: F.opsDialog.id, title: "ops", kind: .group, unread: 2, lastMessage: "anyone there?",
                                   lastMessageDate: F.t0 - 3600, occupantIDs: [F.me, F.bob, F.carol])

    static func privateDialog(_ presence: Presence, width: Int = 80, height: Int = 24,
                              profile: RenderProfile = RenderProfile(unicode: true, colors: 256, images: .none)) -> F.Session {
        var session = Scenes.deploy(width: width, height: height, profile: profile, short: width >= 80)
        session.send(.presence(userID: F.bob, presence))
        return session
    }

    static func group(width: Int = 80, height: Int = 24) -> F.Session {
        var session = F.opened(ops, messages: [F.message(1, from: F.bob, "standup in 5", at: F.t0 - 300, dialog: ops)],
                               width: width, height: height)
        session.send(.olderLoaded(dialogID: ops.id, before: session.model.conversation!.messages.first!.cursor, [], exhausted: true))
        session.send(.presence(userID: F.bob, .online))
        session.send(.presence(userID: F.carol, .lastSeen(at: F.t0 - 7200)))
        return session
    }

    static func dialogs(width: Int = 80, height: Int = 24,
                        profile: RenderProfile = RenderProfile(unicode: true, colors: 256, images: .none)) -> F.Session {
        var session = Scenes.dialogs(width: width, height: height, profile: profile)
        session.send(.presence(userID: F.bob, .online))
        // Online, but in a group only: the list marks private dialogs' peers.
        session.send(.presence(userID: F.carol, .online))
        return session
    }
}
