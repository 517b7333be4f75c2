import Foundation
import Testing
@testable import ChatView

/// Actions on a selected cell: reply, forward, copy, edit, delete; and how
/// replies and forwards look (golden screens).
@Suite struct MessageActionsTests {
    typealias F = Fixture

    /// A conversation with Bob's message 1 and Alice's message 2, the cell of `selected` selected.
    static func selecting(_ selected: Int, pending: [ShownMessage] = []) -> F.Session {
        let messages = [F.message(1, from: F.bob, "did the deploy finish?", at: F.t0 - 60),
                        F.message(2, from: F.me, "yes, all green", at: F.t0, delivery: .delivered)]
        var session = F.opened(messages: messages, pending: pending)
        session.send(.key(.tab))
        while session.model.conversation?.selection != F.id(selected) {
            let before = session.model.conversation?.selection
            session.send(.key(.up))
            if session.model.conversation?.selection == before { break }
        }
        session.effects.removeAll()
        return session
    }

    /// The effects without the typing notifications that come with typing.
    static func actions(_ effects: [ScreenEffect]) -> [ScreenEffect] {
        effects.filter { if case .sendTyping = $0 { false } else { true } }
    }

    @Test func rRepliesWithTheInputAndEscCancels() {
        var session = Self.selecting(1)
        session.type("r")
        #expect(session.model.composing == .reply(session.model.conversation!.messages[0]))
        #expect(session.model.conversation?.selection == nil, "the selection ends: the keys type again")
        #expect(session.screen.contains("↪ replying to bob: did the deploy finish?"))
        session.type("ok")
        session.send(.key(.enter))
        #expect(Self.actions(session.effects) == [.reply(text: "ok", dialogID: F.bobDialog.id, to: F.id(1))])
        #expect(session.model.composing == nil && !session.screen.contains("replying to"))

        session = Self.selecting(1)
        session.type("r")
        session.type("never mind")
        session.send(.key(.escape))
        #expect(session.model.composing == nil && session.model.screen == .conversation, "Esc ends the reply, not the dialog")
        #expect(session.model.input.text == "never mind", "what was typed stays, to send as a plain message")
        session.send(.key(.enter))
        #expect(Self.actions(session.effects) == [.send(text: "never mind", dialogID: F.bobDialog.id)])
    }

    @Test func fForwardsToTheDialogPicked() {
        var session = Self.selecting(1)
        session.type("f")
        #expect(session.model.forwarding?.message.id == F.id(1))
        #expect(session.screen.contains("forward to:"))
        session.type("op")
        #expect(session.model.forwarding?.picker.shown.map(\.id) == [F.opsDialog.id], "typing filters the list")
        session.send(.key(.enter))
        #expect(session.effects == [.forward(messageID: F.id(1), to: F.opsDialog.id)])
        #expect(session.model.forwarding == nil && session.model.notice == "forwarded to ops")

        session = Self.selecting(1)
        session.type("f")
        session.send(.key(.down))
        #expect(session.model.forwarding?.picker.selectedID == F.opsDialog.id)
        session.send(.key(.escape))
        #expect(session.model.forwarding == nil && session.effects.isEmpty && session.model.screen == .conversation)
    }

    @Test func yCopiesTheText() {
        var session = Self.selecting(1)
        session.type("y")
        #expect(session.effects == [.copy("did the deploy finish?")])
        #expect(session.model.notice == "copied to the clipboard")
    }

    @Test func eEditsOnlyOwnSentMessages() {
        var session = Self.selecting(2)
        session.type("e")
        #expect(session.model.input.text == "yes, all green")
        #expect(session.screen.contains("✎ editing: yes, all green"))
        session.send(.key(.backspace))
        session.type("N")
        session.send(.key(.enter))
        #expect(Self.actions(session.effects) == [.edit(messageID: F.id(2), dialogID: F.bobDialog.id, text: "yes, all greeN")])

        var edited = session.model.conversation!.messages[1]
        edited.text = "yes, all greeN"
        session.send(.messagesEdited([edited]))
        #expect(session.model.conversation?.messages[1].edited == true)
        #expect(session.screen.contains("yes, all greeN") && session.screen.contains("(edited)"))

        session = Self.selecting(1)
        session.type("e")
        #expect(session.model.composing == nil && session.model.notice == "only your own messages can be edited")
        #expect(session.model.input.isEmpty)
    }

    @Test func xAsksBeforeDeletingAndOnlyYesDeletes() {
        var session = Self.selecting(2)
        session.type("x")
        let rows = session.screen.components(separatedBy: "\n")
        #expect(rows[rows.count - 3].contains("delete this message? y/n"), "the question above the rule, over the input")
        #expect(session.effects.isEmpty)
        session.type("n")
        #expect(session.effects.isEmpty && session.model.notice == "not deleted")
        #expect(session.model.input.isEmpty, "the answer is not typed into the input")

        session = Self.selecting(2)
        session.type("x")
        _ = session.advance(30)
        session.send(.notice("could not bring the dialog up to date: timed out"))
        _ = session.advance(30)
        #expect(session.screen.contains("delete this message? y/n"), "the question waits for its answer, whatever is told meanwhile")
        session.type("y")
        #expect(session.effects == [.delete(messageID: F.id(2), dialogID: F.bobDialog.id)])
        session.send(.messagesRemoved(dialogID: F.bobDialog.id, ids: [F.id(2)]))
        #expect(session.model.conversation?.messages.map(\.id) == [F.id(1)])
        #expect(!session.screen.contains("yes, all green"))

        session = Self.selecting(1)
        session.type("x")
        #expect(session.model.confirming == nil && session.model.notice == "only your own messages can be deleted")

        // A paste answers no question, and a message deleted meanwhile asks nothing more.
        session = Self.selecting(2)
        session.type("x")
        session.send(.paste("yes please"))
        #expect(session.effects.isEmpty && session.model.confirming == nil && session.model.input.isEmpty)
        session = Self.selecting(2)
        session.type("x")
        session.send(.messagesRemoved(dialogID: F.bobDialog.id, ids: [F.id(2)]))
        #expect(session.model.confirming == nil)
    }

    @Test func aMessageStillInTheOutboxHasNoActionsButCopy() {
        let queued = F.message(9, from: F.me, "still queued", at: F.t0 + 5, delivery: .queued)
        for key: Character in ["r", "f", "e", "x"] {
            var session = Self.selecting(9, pending: [queued])
            #expect(session.model.conversation?.selection == F.id(9))
            session.type(String(key))
            #expect(session.effects.isEmpty && session.model.composing == nil && session.model.forwarding == nil
                    && session.model.confirming == nil, "\(key)")
            #expect(session.model.notice?.hasPrefix("not sent yet") == true, "\(key)")
        }
    }

    @Test func aReplyOrForwardShowsItsQuoteAboveItsText() {
        let screen = Scenes.replies().screen
        let rows = screen.components(separatedBy: "\n")
        let quote = rows.firstIndex { $0.contains("↪ bob") }!
        #expect(rows[quote + 1].contains("  did the deploy finish?"))
        #expect(rows[quote + 2].contains("yes, all green"), "the reply's own text under the quote")
        let long = rows.firstIndex { $0.contains("↪ alice") }!
        #expect(rows[long + 2].contains("…"), "two lines of the original at most, the second cut")
        #expect(rows[long + 3].contains("great, then I close the ticket"))
        #expect(Scenes.forward().screen.contains("↪ forwarded from carol (+1 more)"))
    }

    @Test(arguments: [
        ("replies 80×24", Scenes.replies().screen, ActionGoldens.replies80x24),
        ("replies 40×12", Scenes.replies(width: 40, height: 12).screen, ActionGoldens.replies40x12),
        ("forward 80×24", Scenes.forward().screen, ActionGoldens.forward80x24),
        ("forward 40×12", Scenes.forward(width: 40, height: 12).screen, ActionGoldens.forward40x12),
    ])
    func golden(name: String, screen: String, golden: String) {
        expectGolden(name, screen: screen, golden: golden)
    }
}
