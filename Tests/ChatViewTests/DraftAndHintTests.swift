import Testing
@testable import ChatView

/// Drafts kept per dialog, as chat apps keep them; and the hint right of the input,
/// which names the keys that do something now.
@Suite struct DraftAndHintTests {
    typealias F = Fixture

    /// The row the input is on (the last), without its trailing blanks.
    static func inputRow(_ session: F.Session) -> String {
        String(session.screen.split(separator: "\n", omittingEmptySubsequences: false).last ?? "")
    }

    @Test func aDraftLeftWithEscComesBackWithItsCursorWhenTheDialogOpensAgain() {
        var session = F.opened()
        session.type("what about the db migration")
        session.send(.key(.wordLeft))
        session.send(.key(.escape))
        #expect(session.model.screen == .dialogs)
        #expect(session.screen.contains("draft: what about the db"), "the list says a draft waits")

        // Another dialog has its own input, empty.
        session.send(.key(.down))
        session.send(.key(.enter))
        #expect(session.model.conversation?.dialog.id == F.opsDialog.id)
        #expect(session.model.input.isEmpty)
        session.type("ops note")
        session.send(.key(.escape))

        session.send(.key(.up))
        session.send(.key(.enter))
        #expect(session.model.conversation?.dialog.id == F.bobDialog.id)
        #expect(session.model.input.text == "what about the db migration")
        #expect(session.model.input.cursor == "what about the db ".count, "the cursor where it was left")
        session.type("s ")
        #expect(session.model.input.text == "what about the db s migration")

        session.send(.key(.escape))
        session.send(.key(.down))
        session.send(.key(.enter))
        #expect(session.model.input.text == "ops note")
    }

    @Test func sendingEmptiesTheDraft() {
        var session = F.opened()
        session.type("sent at once")
        session.send(.key(.enter))
        #expect(session.effects.contains(.send(text: "sent at once", dialogID: F.bobDialog.id)))
        session.send(.key(.escape))
        #expect(!session.screen.contains("draft:"))
        session.send(.key(.enter))
        #expect(session.model.input.isEmpty)
        session.send(.key(.up))
        #expect(session.model.input.text == "sent at once", "the dialog's history of sent texts is kept with it")
    }

    /// Each change of a draft goes to the edge, to keep for the next run; leaving it unchanged asks nothing.
    @Test func aChangedDraftIsKeptForTheNextRunOnLeavingAndOnQuitting() {
        var session = F.opened()
        session.type("half a thought")
        session.send(.key(.escape))
        #expect(session.effects.contains(.keepDraft(dialogID: F.bobDialog.id, text: "half a thought", cursor: 14)))
        session.effects.removeAll()
        session.send(.key(.enter))
        session.send(.key(.escape))
        #expect(!session.effects.contains { if case .keepDraft = $0 { true } else { false } }, "unchanged: nothing to write")

        session.send(.key(.enter))
        session.type("!")
        session.send(.key(.control("c")))
        #expect(session.effects.contains(.keepDraft(dialogID: F.bobDialog.id, text: "half a thought!", cursor: 15)))
        let kept = session.effects.firstIndex { if case .keepDraft = $0 { true } else { false } }
        let quit = session.effects.firstIndex { if case .quit = $0 { true } else { false } }
        #expect(kept != nil && quit != nil && kept! < quit!, "kept before the view ends")
    }

    /// The drafts of an earlier run, put in the model by the edge: in the list, and in the input when opened.
    @Test func aDraftFromAnEarlierRunShowsInTheListAndOpensWithItsDialog() {
        var session = F.Session(F.model())
        session.model.drafts[F.opsDialog.id] = LineEditor("see you at ten", cursor: 4)
        session.send(.dialogsLoaded([F.bobDialog, F.opsDialog]))
        #expect(session.screen.contains("draft: see you at ten"))
        session.send(.key(.down))
        session.send(.key(.enter))
        #expect(session.model.input.text == "see you at ten" && session.model.input.cursor == 4)
        session.send(.key(.control("u")))
        session.send(.key(.control("k")))
        session.send(.key(.escape))
        #expect(session.effects.contains(.keepDraft(dialogID: F.opsDialog.id, text: "", cursor: 0)), "emptied: no draft left")
        #expect(!session.screen.contains("draft:"))
    }

    /// Tab on Bob's message: what it takes; on our own: edit and delete too.
    @Test func aSelectedMessageHintsItsActions() {
        var session = MessageActionsTests.selecting(1)
        #expect(Self.inputRow(session).hasSuffix("r reply · f forward · y copy · ↑↓ move · Esc done"))
        #expect(!Self.inputRow(session).contains("e edit"), "not our message: no edit")
        session = MessageActionsTests.selecting(2)
        #expect(Self.inputRow(session).hasSuffix("r reply · f forward · y copy · e edit · x delete · ↑↓ move"),
                "as many as fit, the most useful first")
    }

    @Test func theHintFollowsWhatIsGoingOn() {
        var session = F.opened()
        #expect(Self.inputRow(session).hasSuffix("Tab select · /attach · F1 help"))
        session.type("hi")
        #expect(Self.inputRow(session) == "> hi", "text being written: no hint")
        session.send(.key(.control("u")))

        session = MessageActionsTests.selecting(2)
        session.type("x")
        #expect(Self.inputRow(session).hasSuffix("y delete · any other key keeps it"))
        session.type("n")
        session = MessageActionsTests.selecting(1)
        session.type("r")
        #expect(Self.inputRow(session).hasSuffix("Enter send reply · Esc cancel"))
        session = MessageActionsTests.selecting(1)
        session.type("f")
        #expect(Self.inputRow(session).hasSuffix("↑↓ choose · Enter forward · Esc cancel"))
    }

    /// Never wider than the screen, never over the text: items drop from the end, then the hint goes.
    @Test func theHintKeepsWithinTheWidthAndClearOfTheText() {
        for width in [40, 50, 60, 80, 120] {
            var session = MessageActionsTests.selecting(2)
            session.send(.resize(width: width, height: 24))
            let row = Self.inputRow(session)
            #expect(DisplayWidth.of(row) <= width - 1, "width \(width): \(row)")
        }
        var session = F.opened(width: 40, height: 12)
        session.type(String(repeating: "x", count: 30))
        #expect(Self.inputRow(session) == "> " + String(repeating: "x", count: 30), "a long text leaves no room")

        let ascii = F.opened(profile: RenderProfile(unicode: false, colors: 0, images: .none))
        #expect(Self.inputRow(ascii).hasSuffix("Tab select - /attach - F1 help"))
    }
}
