@testable import ChatView

/// Alice (1, "me"), Bob (2) and Carol (3); times in UTC from Mon 30 Nov 2026 16:51.
enum Fixture {
    static let me = 1, bob = 2, carol = 3
    static let t0 = 1_796_057_460
    static let bobDialog = DialogSummary(id: "d0000000000000000000000b", title: "bob", kind: .private, unread: 0,
                                         lastMessage: "did the deploy finish?", lastMessageDate: t0, peerID: bob)
    static let opsDialog = DialogSummary(id: "d00000000000000000000005", title: "ops", kind: .group, unread: 2,
                                         lastMessage: "anyone there?", lastMessageDate: t0 - 3600)
    static let names = [me: "alice", bob: "bob", carol: "carol"]

    static func id(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: 24 - digits.count) + digits
    }

    static func message(_ n: Int, from sender: Int, _ text: String, at time: Int, dialog: DialogSummary = bobDialog,
                        delivery: Delivery = .sent, read: Bool = true, attachments: [ShownAttachment] = []) -> ShownMessage {
        ShownMessage(id: id(n), dialogID: dialog.id, senderID: sender, senderName: names[sender] ?? "user \(sender)", text: text,
                     dateSent: time, outgoing: sender == me, delivery: delivery, readByMe: read, attachments: attachments)
    }

    /// 30 messages, alternating, a minute apart, ending at t0.
    static func history(_ count: Int = 30, dialog: DialogSummary = bobDialog, firstID: Int = 1000) -> [ShownMessage] {
        (0..<count).map { i in
            message(firstID + i, from: i % 3 == 2 ? me : bob, "message \(firstID + i)", at: t0 - (count - 1 - i) * 60, dialog: dialog)
        }
    }

    static func model(width: Int = 80, height: Int = 24, profile: RenderProfile = RenderProfile(unicode: true, colors: 256, images: .none)) -> ScreenModel {
        var model = ScreenModel(me: me, width: width, height: height, now: Double(t0 + 30), profile: profile)
        model.names = names
        return model
    }

    /// Runs events through the update, collecting every effect.
    struct Session {
        var model: ScreenModel
        var effects: [ScreenEffect] = []
        var now: Double
        let update: ScreenUpdate

        init(_ model: ScreenModel, update: ScreenUpdate = ScreenUpdate()) {
            self.model = model; self.now = model.now; self.update = update
        }

        @discardableResult
        mutating func send(_ event: ScreenEvent) -> [ScreenEffect] {
            let (next, effects) = update.update(model, event, now: now)
            model = next
            self.effects += effects
            return effects
        }

        mutating func type(_ text: String) {
            for character in text { send(.key(.character(character))) }
        }

        mutating func advance(_ seconds: Double) -> [ScreenEffect] {
            now += seconds
            return send(.tick)
        }

        var screen: String { ScreenRenderer().render(model).snapshot }
    }

    /// A session with the dialog list loaded and `dialog` opened with `messages`.
    static func opened(_ dialog: DialogSummary = bobDialog, messages: [ShownMessage] = history(), pending: [ShownMessage] = [],
                       width: Int = 80, height: Int = 24,
                       profile: RenderProfile = RenderProfile(unicode: true, colors: 256, images: .none),
                       update: ScreenUpdate = ScreenUpdate()) -> Session {
        var session = Session(model(width: width, height: height, profile: profile), update: update)
        session.send(.dialogsLoaded([bobDialog, opsDialog]))
        session.send(.connection(.connected))
        if dialog.id != bobDialog.id { session.send(.key(.down)) }
        session.send(.key(.enter))
        session.send(.conversationLoaded(dialog, messages: messages, pending: pending, names: names))
        session.effects.removeAll()
        return session
    }
}
