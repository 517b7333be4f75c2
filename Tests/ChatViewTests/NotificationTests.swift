import Testing
@testable import ChatView

/// News from a dialog not on the screen: one notification per batch, the count in the
/// title; nothing for the open dialog, our own messages, muted dialogs, or with notify off.
@Suite struct NotificationTests {
    typealias F = Fixture

    static func notifications(_ effects: [ScreenEffect]) -> [ScreenEffect] {
        effects.filter { if case .notify = $0 { true } else { false } }
    }

    @Test func aMessageInAnotherDialogNotifiesOnceWithWhoAndWhat() {
        var session = F.opened()
        let effects = session.send(.messagesArrived([F.message(5000, from: F.carol, "standup in 5", at: F.t0 + 10, dialog: F.opsDialog, read: false)]))
        #expect(Self.notifications(effects) == [.notify(title: "carol in ops", body: "standup in 5")])
        #expect(ScreenRenderer().render(session.model).title == "(3) bob · chatctl", "ops had 2 unread, now 3")
    }

    @Test func aBatchIsOneNotification() {
        var session = F.opened()
        let batch = (0..<4).map { F.message(5000 + $0, from: F.carol, "line \($0)", at: F.t0 + 10 + $0, dialog: F.opsDialog, read: false) }
        let effects = session.send(.messagesArrived(batch))
        #expect(Self.notifications(effects) == [.notify(title: "chatctl", body: "4 new messages")])
    }

    @Test func theOpenDialogOursMutedAndNotifyOffStayQuiet() {
        var session = F.opened()
        #expect(Self.notifications(session.send(.messagesArrived([F.message(5000, from: F.bob, "here", at: F.t0 + 10, read: false)]))).isEmpty)
        #expect(Self.notifications(session.send(.messagesArrived([F.message(5001, from: F.me, "mine", at: F.t0 + 11, dialog: F.opsDialog)]))).isEmpty)

        var muted = F.opsDialog
        muted.muted = true
        var quiet = F.Session(F.model())
        quiet.send(.dialogsLoaded([F.bobDialog, muted]))
        quiet.send(.key(.enter))
        #expect(Self.notifications(quiet.send(.messagesArrived([F.message(5002, from: F.carol, "x", at: F.t0 + 12, dialog: muted, read: false)]))).isEmpty)
        #expect(ScreenRenderer().render(quiet.model).title == "bob · chatctl", "a muted dialog counts nowhere")

        var off = F.Session(F.model())
        off.model.settings.notify = false
        off.send(.dialogsLoaded([F.bobDialog, F.opsDialog]))
        off.send(.key(.enter))
        #expect(Self.notifications(off.send(.messagesArrived([F.message(5003, from: F.carol, "x", at: F.t0 + 13, dialog: F.opsDialog, read: false)]))).isEmpty)
        #expect(ScreenRenderer().render(off.model).title == "bob · chatctl")
    }
}
