@testable import ChatView

/// The conversations the golden snapshots show.
enum Scenes {
    typealias F = Fixture

    /// A private dialog across two days: incoming runs, each outgoing state, a message
    /// still sending, one that failed, Bob typing, unread messages elsewhere.
    /// `short`: without the second incoming message, the quick thanks and the failed ping, so that 80×24 shows a day.
    static func deploy(width: Int = 80, height: Int = 24, profile: RenderProfile = RenderProfile(unicode: true, colors: 256, images: .none),
                       short: Bool = false) -> F.Session {
        let yesterday = F.t0 - 86_400 + 3600
        let messages = [
            F.message(1, from: F.bob, "morning! is the build still red?", at: yesterday),
            F.message(2, from: F.me, "fixed it, the cache was stale", at: yesterday + 120, delivery: .read),
            F.message(3, from: F.bob, "did the deploy finish?", at: F.t0 - 120),
            F.message(4, from: F.bob, "the dashboard looks quiet", at: F.t0 - 60),
            F.message(5, from: F.me, "yes, all green. logs in the thread, and the canary has been at 100% for an hour now", at: F.t0,
                      delivery: .delivered),
            F.message(6, from: F.me, "thanks!", at: F.t0 + 10, delivery: .sent),
        ]
        let pending = [
            F.message(7, from: F.me, "what about the db migration?", at: F.t0 + 20, delivery: .sending),
            F.message(8, from: F.me, "ping", at: F.t0 + 25, delivery: .undelivered("timed out")),
        ]
        let shownMessages = short ? messages.filter { ![4, 6].contains(Int($0.id)!) } : messages
        let shownPending = short ? Array(pending.prefix(1)) : pending
        var session = F.opened(messages: shownMessages, pending: shownPending, width: width, height: height, profile: profile)
        session.send(.typing(userID: F.bob, dialogID: nil, .composing))
        return session
    }

    /// Wide text: CJK, emoji (a ZWJ family, a flag, skin tones), combining marks.
    static func wide(width: Int = 80, height: Int = 24) -> F.Session {
        let messages = [
            F.message(1, from: F.bob, "你好，世界！这是一条很长的中文消息，用来测试换行是否正确。", at: F.t0 - 60),
            F.message(2, from: F.me, "👨‍👩‍👧 family, 🇫🇷 flag, 👍🏽 ok, café, e\u{301}", at: F.t0),
        ]
        var session = F.opened(messages: messages, width: width, height: height)
        session.send(.olderLoaded(dialogID: F.bobDialog.id, [], exhausted: true))
        return session
    }

    /// A group: senders in colours of their own, an attachment downloading.
    static func group() -> F.Session {
        let cat = ShownAttachment(kind: "image", name: "screenshot.png", size: 245_760, uid: "u1",
                                  transfer: Transfer(direction: .download, done: 176_947, total: 245_760))
        let messages = [
            F.message(1, from: F.bob, "standup in 5", at: F.t0 - 300, dialog: F.opsDialog),
            F.message(2, from: F.carol, "", at: F.t0 - 240, dialog: F.opsDialog, attachments: [cat]),
            F.message(3, from: F.carol, "that's the error", at: F.t0 - 200, dialog: F.opsDialog),
            F.message(4, from: F.me, "on it", at: F.t0 - 100, dialog: F.opsDialog, delivery: .read),
        ]
        var session = F.opened(F.opsDialog, messages: messages)
        session.send(.olderLoaded(dialogID: F.opsDialog.id, [], exhausted: true))
        return session
    }

    static func dialogs(width: Int = 80, height: Int = 24, profile: RenderProfile = RenderProfile(unicode: true, colors: 256, images: .none)) -> F.Session {
        var session = F.Session(F.model(width: width, height: height, profile: profile))
        let more = [
            DialogSummary(id: "d1", title: "李雷", kind: .private, unread: 12, lastMessage: "明天见", lastMessageDate: F.t0 - 86_400 * 3),
            DialogSummary(id: "d2", title: "a group with a rather long name indeed", kind: .public, unread: 0,
                          lastMessage: "a last message that is much too long to fit in the column it has on the screen",
                          lastMessageDate: F.t0 - 86_400 * 400),
        ]
        session.send(.dialogsLoaded([F.bobDialog, F.opsDialog] + more))
        session.send(.connection(.reconnecting(at: F.model().now + 3)))
        return session
    }
}
