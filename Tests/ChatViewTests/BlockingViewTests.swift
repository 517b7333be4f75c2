import Foundation
import Testing
@testable import ChatView

/// `/block` and `/unblock` in the chat view ask first (y/N) and only a yes blocks; a private
/// dialog with someone blocked is marked in the list and the status line; a message refused
/// because the other person blocks us stays on the screen, marked, after it left the outbox.
@Suite struct BlockingViewTests {
    typealias F = Fixture

    static func submit(_ session: inout F.Session, _ line: String) {
        session.type(line)
        session.send(.key(.enter))
    }

    static func actions(_ effects: [ScreenEffect]) -> [ScreenEffect] {
        effects.filter { if case .sendTyping = $0 { false } else { true } }
    }

    @Test func blockAsksFirstAndOnlyYesBlocks() {
        var session = F.opened()
        Self.submit(&session, "/block")
        #expect(Self.actions(session.effects).isEmpty, "nothing before the answer")
        let rows = session.screen.components(separatedBy: "\n")
        #expect(rows[rows.count - 3].contains("block bob? Their messages will no longer reach you. y/N"), "\(session.screen)")
        // The hint names the question's keys, not the composer's.
        #expect(rows[rows.count - 1].hasSuffix("y block · any other key leaves it"), "\(session.screen)")
        session.type("n")
        #expect(Self.actions(session.effects).isEmpty && session.model.notice == "not blocked")
        #expect(session.model.input.isEmpty, "the answer is not typed into the input")

        Self.submit(&session, "/block")
        session.send(.key(.enter))
        #expect(Self.actions(session.effects).isEmpty && session.model.notice == "not blocked", "Enter is no")

        Self.submit(&session, "/block")
        session.send(.paste("yes"))
        #expect(Self.actions(session.effects).isEmpty && session.model.notice == "not blocked", "a paste answers nothing")

        Self.submit(&session, "/block")
        session.type("y")
        #expect(Self.actions(session.effects) == [.block(userID: F.bob, true)])
        #expect(session.model.notice == "blocking bob…")
    }

    @Test func theBlockIsMarkedAndUnblockAsksToo() {
        var session = F.opened()
        session.send(.blockedChanged([F.bob]))
        #expect(session.model.notice == "blocked bob")
        #expect(session.screen.components(separatedBy: "\n")[0].contains("bob · private · blocked"), "\(session.screen)")
        Self.submit(&session, "/block")
        #expect(session.model.notice == "bob is blocked already: /unblock to undo")
        #expect(Self.actions(session.effects).isEmpty)
        Self.submit(&session, "/unblock")
        #expect(session.screen.contains("unblock bob? y/N"))
        #expect(session.screen.contains("y unblock · any other key leaves it"), "\(session.screen)")
        session.type("Y")
        #expect(Self.actions(session.effects) == [.block(userID: F.bob, false)])
        session.send(.blockedChanged([]))
        #expect(session.model.notice == "unblocked bob")
        #expect(!session.screen.components(separatedBy: "\n")[0].contains("blocked"))

        // Back on the list: bob's dialog says blocked where its type is.
        session.send(.blockedChanged([F.bob]))
        session.send(.key(.escape))
        let bobRow = session.screen.components(separatedBy: "\n").first { $0.contains("did the deploy finish?") }
        #expect(bobRow?.contains("blocked") == true, "\(session.screen)")
        let opsRow = session.screen.components(separatedBy: "\n").first { $0.contains("anyone there?") }
        #expect(opsRow?.contains("group") == true)
    }

    @Test func blockIsForAPrivateDialog() {
        var session = F.opened(F.opsDialog)
        Self.submit(&session, "/block")
        #expect(session.model.confirming == nil)
        #expect(session.model.notice == "/block is for a private dialog: it blocks the other person")
    }

    @Test func aMessageRefusedByABlockStaysMarked() {
        let pending = F.message(7, from: F.me, "are you there?", at: F.t0 + 10, delivery: .sending)
        var session = F.opened(pending: [pending])
        session.send(.messageRefused(dialogID: F.bobDialog.id, id: F.id(7), reason: "bob has blocked you; the message was not sent"))
        #expect(session.model.notice == "bob has blocked you; the message was not sent")
        // The outbox no longer has it: the view keeps it, marked.
        session.send(.pendingChanged(dialogID: F.bobDialog.id, []))
        #expect(session.model.conversation?.pending.map(\.id) == [F.id(7)])
        #expect(session.model.conversation?.pending.first?.delivery == .refused("bob has blocked you; the message was not sent"))
        _ = session.advance(60)
        #expect(session.screen.contains("not sent: bob has blocked you"), "\(session.screen)")
    }

    @Test func helpListsBlockAndUnblock() {
        var session = F.opened(height: 60)
        session.send(.key(.function(1)))
        #expect(session.screen.contains("/block · /unblock"), "\(session.screen)")
    }
}
