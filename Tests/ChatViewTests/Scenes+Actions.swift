@testable import ChatView

/// The scenes of replies and forwards the golden snapshots show.
extension Scenes {
    /// Bob asks, Alice answers quoting him, Bob answers quoting her (a quote of two lines
    /// and more), and Alice has started a reply to Bob's last message (the banner).
    static func replies(width: Int = 80, height: Int = 24) -> F.Session {
        let question = F.message(1, from: F.bob, "did the deploy finish?", at: F.t0 - 180)
        var answer = F.message(2, from: F.me, "yes, all green", at: F.t0 - 120, delivery: .read)
        answer.quote = ShownQuote(action: .reply, senderName: "bob", text: question.text)
        var followUp = F.message(3, from: F.bob, "great, then I close the ticket", at: F.t0 - 60)
        followUp.quote = ShownQuote(action: .reply, senderName: "alice",
                                    text: "yes, all green. logs in the thread, and the canary has been at 100% for an hour now\nsecond line\nthird line")
        var session = F.opened(messages: [question, answer, followUp], width: width, height: height)
        session.send(.olderLoaded(dialogID: F.bobDialog.id, before: session.model.conversation!.messages.first!.cursor, [], exhausted: true))
        session.send(.key(.tab))
        session.type("r")
        session.type("thanks")
        return session
    }

    /// A message Bob forwarded from Carol (its own text the apps' placeholder, shown as
    /// nothing), and Alice about to forward it on: the list of dialogs over the conversation.
    static func forward(width: Int = 80, height: Int = 24) -> F.Session {
        var forwarded = F.message(1, from: F.bob, "", at: F.t0 - 60)
        forwarded.quote = ShownQuote(action: .forward, senderName: "carol", text: "the release notes are in the wiki", more: 1)
        let own = F.message(2, from: F.me, "thanks, reading", at: F.t0, delivery: .delivered)
        var session = F.opened(messages: [forwarded, own], width: width, height: height)
        session.send(.olderLoaded(dialogID: F.bobDialog.id, before: session.model.conversation!.messages.first!.cursor, [], exhausted: true))
        session.send(.key(.tab))
        session.send(.key(.up))
        session.type("f")
        return session
    }
}
