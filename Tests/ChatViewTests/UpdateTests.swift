import Testing
@testable import ChatView

@Suite struct UpdateTests {
    typealias F = Fixture

    // MARK: dialogs screen

    @Test func enterOnTheDialogsScreenOpensTheSelectedDialog() {
        var session = F.Session(F.model())
        session.send(.dialogsLoaded([F.bobDialog, F.opsDialog]))
        session.send(.key(.character("j")))
        #expect(session.send(.key(.enter)) == [.openDialog(id: F.opsDialog.id)])
        #expect(session.model.screen == .conversation)
        #expect(session.model.dialogs.all.first { $0.id == F.opsDialog.id }?.unread == 0, "an open dialog counts nothing unread")
    }

    @Test func slashFiltersTheDialogsByName() {
        var session = F.Session(F.model())
        session.send(.dialogsLoaded([F.bobDialog, F.opsDialog]))
        session.send(.key(.character("/")))
        session.type("OP")
        #expect(session.model.dialogs.shown.map(\.id) == [F.opsDialog.id])
        #expect(session.send(.key(.enter)) == [.openDialog(id: F.opsDialog.id)])
        session.send(.key(.escape))
        #expect(session.model.screen == .dialogs, "Esc goes back to the list when it was opened from there")
        #expect(session.model.dialogs.filter == "OP")
        session.send(.key(.escape))
        #expect(session.model.dialogs.filter == nil)
        #expect(session.send(.key(.escape)) == [.quit(interrupted: false)])
    }

    @Test func aMessageForAnotherDialogCountsUnreadThereAndMovesItUp() {
        var session = F.opened()
        session.send(.messagesArrived([F.message(5000, from: F.carol, "ping", at: F.t0 + 10, dialog: F.opsDialog, read: false)]))
        let ops = session.model.dialogs.all.first { $0.id == F.opsDialog.id }
        #expect(ops?.unread == 3)
        #expect(ops?.lastMessage == "ping")
        #expect(session.model.dialogs.all.first?.id == F.opsDialog.id)
        #expect(session.model.conversation?.messages.contains { $0.id == F.id(5000) } == false)
    }

    // MARK: input and sending

    @Test func enterSendsTheInputAndRemembersIt() {
        var session = F.opened()
        session.type("hello")
        let effects = session.send(.key(.enter))
        #expect(effects.contains(.send(text: "hello", dialogID: F.bobDialog.id)))
        #expect(session.model.input.isEmpty)
        session.send(.key(.up))
        #expect(session.model.input.text == "hello", "Up brings back what was sent")
    }

    @Test func blankInputSendsNothingAndSlashCommandsAreCommands() {
        var session = F.opened()
        session.type("   ")
        #expect(!session.send(.key(.enter)).contains { if case .send = $0 { return true } else { return false } })
        session.type("/attach /tmp/cat.jpg")
        #expect(session.send(.key(.enter)).contains(.attach(path: "/tmp/cat.jpg", dialogID: F.bobDialog.id)))
        session.type("//etc is a path")
        #expect(session.send(.key(.enter)).contains(.send(text: "/etc is a path", dialogID: F.bobDialog.id)))
        session.type("/frobnicate")
        session.send(.key(.enter))
        #expect(session.model.notice?.hasPrefix("unknown command /frobnicate") == true)
        session.type("/quit")
        #expect(session.send(.key(.enter)).contains(.quit(interrupted: false)))
    }

    @Test func aPasteOfSeveralLinesIsOneMessage() {
        var session = F.opened()
        session.send(.paste("line one\nline two"))
        #expect(session.model.input.text == "line one\nline two")
        #expect(session.send(.key(.enter)).contains(.send(text: "line one\nline two", dialogID: F.bobDialog.id)))
    }

    @Test func controlKeysEditAndQuit() {
        var session = F.opened()
        session.type("hello big world")
        session.send(.key(.control("w")))
        #expect(session.model.input.text == "hello big ")
        session.send(.key(.control("a")))
        session.send(.key(.control("k")))
        #expect(session.model.input.isEmpty)
        session.type("x")
        session.send(.key(.control("u")))
        #expect(session.send(.key(.control("d"))) == [.quit(interrupted: false)], "^D on an empty input quits")
        var other = F.opened()
        #expect(other.send(.key(.control("c"))) == [.quit(interrupted: true)])
    }

    @Test func escQuitsWhenTheDialogWasNamedOnTheCommandLine() {
        var model = F.model()
        model.openedDirectly = true
        model.screen = .conversation
        model.conversation = Conversation(dialog: F.bobDialog)
        var session = F.Session(model)
        #expect(session.send(.key(.escape)) == [.quit(interrupted: false)])
    }

    // MARK: typing

    @Test func typingSaysComposingOnceThenPausedWhenIdle() {
        var session = F.opened()
        session.type("hel")
        #expect(session.effects == [.sendTyping(.composing, dialogID: F.bobDialog.id)])
        #expect(session.advance(2).isEmpty)
        #expect(session.advance(4) == [.sendTyping(.paused, dialogID: F.bobDialog.id)])
        session.type("lo")
        #expect(session.effects.last == .sendTyping(.composing, dialogID: F.bobDialog.id))
        session.effects.removeAll()
        session.send(.key(.control("u")))
        #expect(session.effects == [.sendTyping(.paused, dialogID: F.bobDialog.id)], "an emptied input is paused at once")
    }

    @Test func sendingEndsComposingWithoutAPaused() {
        var session = F.opened()
        session.type("hi")
        session.send(.key(.enter))
        #expect(session.advance(10).isEmpty, "the message itself tells the peer we stopped")
    }

    @Test func theirTypingShowsUntilTheirMessageOrItExpires() {
        var session = F.opened()
        session.send(.typing(userID: F.bob, dialogID: nil, .composing))
        #expect(session.screen.contains("bob is typing…"))
        session.send(.messagesArrived([F.message(3000, from: F.bob, "done", at: F.t0 + 40, read: false)]))
        #expect(!session.screen.contains("typing"))
        session.send(.typing(userID: F.bob, dialogID: F.bobDialog.id, .composing))
        #expect(session.screen.contains("bob is typing…"))
        _ = session.advance(31)
        #expect(!session.screen.contains("typing"), "a composing without news expires")
        session.send(.typing(userID: F.carol, dialogID: nil, .composing))
        #expect(!session.screen.contains("typing"), "carol is not the peer of this private dialog")
    }

    // MARK: markers and state

    @Test func markersUpdateAnOutgoingCellInPlace() {
        var session = F.opened(messages: [F.message(1, from: F.me, "yes, all green", at: F.t0)])
        #expect(session.screen.contains("16:51 ✓\n") || session.screen.hasSuffix("16:51 ✓"))
        session.send(.messagesChanged([F.message(1, from: F.me, "yes, all green", at: F.t0, delivery: .delivered)]))
        #expect(session.screen.contains("16:51 ✓✓"))
        session.send(.messagesChanged([F.message(1, from: F.me, "yes, all green", at: F.t0, delivery: .read)]))
        #expect(session.model.conversation?.messages.first?.delivery == .read)
    }

    @Test func whatIsOnTheScreenIsMarkedDisplayedOnce() {
        let unread = (0..<30).map { i in F.message(2000 + i, from: F.bob, "news \(i)", at: F.t0 - 3000 + i * 60, read: false) }
        var session = F.Session(F.model())
        session.send(.dialogsLoaded([F.bobDialog]))
        session.send(.key(.enter))
        let effects = session.send(.conversationLoaded(F.bobDialog, messages: unread, pending: [], names: F.names))
        let marked = effects.compactMap { effect -> [String]? in if case .markDisplayed(let ids, _) = effect { return ids } else { return nil } }
        #expect(marked.count == 1)
        let visible = Set(marked.first ?? [])
        #expect(visible.contains(F.id(2029)) && !visible.contains(F.id(2000)), "only the bottom screenful")
        #expect(!session.send(.tick).contains { if case .markDisplayed = $0 { return true } else { return false } }, "once")
        session.send(.key(.pageUp))
        let more = session.effects.compactMap { effect -> [String]? in if case .markDisplayed(let ids, _) = effect { return ids } else { return nil } }
        #expect(more.count == 2, "scrolling up shows, and marks, older ones")
        #expect(Set(more[1]).isDisjoint(with: visible))
    }

    @Test func pendingMessagesShowAfterHistoryUntilTheServerHasThem() {
        var session = F.opened()
        let queued = F.message(9000, from: F.me, "offline note", at: F.t0 + 20, delivery: .queued)
        session.send(.pendingChanged(dialogID: F.bobDialog.id, [queued]))
        #expect(session.screen.contains("offline note"))
        #expect(session.screen.contains("queued"))
        session.send(.messagesArrived([F.message(9000, from: F.me, "offline note", at: F.t0 + 20)]))
        #expect(session.model.conversation?.pending.isEmpty == true)
        #expect(session.model.conversation?.messages.last?.id == F.id(9000))
    }

    // MARK: scrolling and paging

    @Test func reachingTheTopAsksForOlderMessagesAndTheViewStaysPut() {
        var session = F.opened()
        var asked: ScreenEffect?
        for _ in 0..<40 {
            if let effect = session.send(.key(.pageUp)).first(where: { if case .loadOlder = $0 { return true } else { return false } }) {
                asked = effect
                break
            }
        }
        #expect(asked == .loadOlder(dialogID: F.bobDialog.id, before: MessageCursor(dateSent: F.t0 - 29 * 60, id: F.id(1000))))
        let before = session.screen
        session.send(.olderLoaded(dialogID: F.bobDialog.id, before: MessageCursor(dateSent: F.t0 - 29 * 60, id: F.id(1000)),
                                  F.history(30, firstID: 100).map { var m = $0; m.dateSent -= 3600; return m }, exhausted: false))
        #expect(session.model.conversation?.messages.count == 60)
        let after = session.screen
        #expect(before.split(separator: "\n").suffix(4) == after.split(separator: "\n").suffix(4),
                "the message at the bottom of the view is still there")
    }

    @Test func theWindowLetsTheNewestGoWhilePagingUpAndReadsThemBack() {
        var session = F.opened(messages: F.history(100, firstID: 100_000))
        var older = 100_000
        var loadedPages = 0
        var sawLoadNewer = false
        // Page up through 10 pages of 100 older messages.
        for _ in 0..<2000 where loadedPages < 10 {
            for effect in session.send(.key(.pageUp)) {
                if case .loadOlder(_, let before) = effect {
                    older -= 100
                    let page = (0..<100).map { i in F.message(older + i, from: F.bob, "old \(older + i)", at: before.dateSent - 100 + i) }
                    session.send(.olderLoaded(dialogID: F.bobDialog.id, before: before, page, exhausted: false))
                    loadedPages += 1
                }
            }
        }
        let conversation = session.model.conversation!
        #expect(conversation.messages.count <= Conversation.windowLimit)
        #expect(conversation.newerTrimmed)
        for _ in 0..<2000 where !sawLoadNewer {
            sawLoadNewer = session.send(.key(.pageDown)).contains { if case .loadNewer = $0 { return true } else { return false } }
        }
        #expect(sawLoadNewer, "scrolling back down reads the newest back")
    }

    @Test func endJumpsToTheNewestAndANewMessageBelowIsCounted() {
        var session = F.opened()
        session.send(.key(.pageUp))
        session.send(.messagesArrived([F.message(4000, from: F.bob, "new one", at: F.t0 + 50, read: false)]))
        #expect(session.model.conversation?.newBelow == 1)
        #expect(session.screen.contains("↓ 1 new"))
        session.send(.key(.end))
        #expect(session.model.conversation?.anchor == nil)
        #expect(session.screen.contains("new one"))
    }

    @Test func aResizeKeepsTheMessageAtTheBottom() {
        var session = F.opened()
        session.send(.key(.pageUp))
        let anchor = session.model.conversation?.anchor
        session.send(.resize(width: 50, height: 30))
        #expect(session.model.conversation?.anchor?.id == anchor?.id)
        #expect(session.model.width == 50)
    }

    // MARK: attachments

    @Test func tabSelectsACellAndDDownloadsItsAttachment() {
        let cat = ShownAttachment(kind: "image", name: "cat.jpg", size: 1_258_291, uid: "8f2a00")
        var session = F.opened(messages: F.history(5) + [F.message(7000, from: F.bob, "", at: F.t0 + 5, attachments: [cat])])
        session.send(.key(.tab))
        #expect(session.model.conversation?.selection == F.id(7000))
        #expect(session.send(.key(.character("d"))) == [.download(messageID: F.id(7000), attachment: 0)])
        session.send(.transfer(messageID: F.id(7000), attachment: 0, Transfer(direction: .download, done: 629_146, total: 1_258_291),
                               localPath: nil))
        #expect(session.screen.contains(" 50 %"))
        session.send(.key(.character("d")))
        #expect(session.model.notice == "cat.jpg is being saved")
        session.send(.transfer(messageID: F.id(7000), attachment: 0,
                               Transfer(direction: .download, done: 629_146, total: 1_258_291, outcome: .failed("connection reset")),
                               localPath: nil))
        #expect(session.screen.contains("failed: connection reset"), "\(session.screen)")
        #expect(session.send(.key(.character("d"))) == [.download(messageID: F.id(7000), attachment: 0)], "once failed, d tries again")
        session.send(.key(.escape))
        #expect(session.model.conversation?.selection == nil)
        #expect(session.model.screen == .conversation, "Esc first leaves the selection")
    }
}

extension UpdateTests {
    /// The first ask of an empty dialog races its catching up: a late answer of
    /// messages it already has must not stop the paging.
    @Test func aStaleOlderPageDoesNotEndThePaging() {
        var session = F.Session(F.model(width: 40, height: 12))
        session.send(.dialogsLoaded([F.bobDialog]))
        session.send(.connection(.connected))
        session.send(.key(.enter))
        let first = session.send(.conversationLoaded(F.bobDialog, messages: [], pending: [], names: F.names))
        let latest = MessageCursor(dateSent: Int.max, id: "")
        #expect(first.contains(.loadOlder(dialogID: F.bobDialog.id, before: latest)))
        let page = F.history(30, firstID: 5000)
        session.send(.messagesArrived(page))
        session.send(.olderLoaded(dialogID: F.bobDialog.id, before: latest, page, exhausted: false))
        #expect(session.model.conversation?.olderExhausted == false)
        #expect(session.model.conversation?.olderWaitsForConnection == false)
        session.send(.key(.home))
        #expect(session.effects.contains(.loadOlder(dialogID: F.bobDialog.id, before: page[0].cursor)))
    }
}

extension UpdateTests {
    @Test func theWheelScrollsThreeRowsAtATime() {
        var session = F.opened()
        session.send(.key(.wheelUp))
        let anchor = session.model.conversation?.anchor
        #expect(anchor?.id == F.id(1029) && anchor?.hiddenRows == 3)
        session.send(.key(.wheelDown))
        #expect(session.model.conversation?.anchor == nil, "back at the bottom it follows again")
    }
}

/// A view at the bottom, or never scrolled, follows whatever
/// arrives and in whatever order; only a person scrolling up unpins it.
extension UpdateTests {
    @Test(arguments: [0, 1, 2, 3])
    func aViewNobodyScrolledStaysAtTheBottomWhateverComesFirst(order: Int) {
        var session = F.Session(F.model(width: 40, height: 12))
        session.send(.dialogsLoaded([F.bobDialog]))
        session.send(.connection(.connected))
        session.send(.key(.enter))
        let mine = F.message(8000, from: F.me, "sent from my other terminal", at: F.t0 + 40)
        let page = F.history(3, firstID: 5000)
        let older = F.history(3, firstID: 4000).map { var m = $0; m.dateSent -= 3600; return m }
        var steps: [ScreenEvent] = [
            .conversationLoaded(F.bobDialog, messages: page, pending: [], names: F.names),
            .olderLoaded(dialogID: F.bobDialog.id, before: page[0].cursor, older, exhausted: true),
            .messagesArrived([mine]),
            .typing(userID: F.bob, dialogID: F.bobDialog.id, .composing),
        ]
        // Each order of the first events: history, an older page, our own send from elsewhere, typing.
        steps = Array(steps[order...] + steps[..<order])
        for step in steps { session.send(step) }
        session.send(.messagesArrived([F.message(8001, from: F.bob, "alice's next message", at: F.t0 + 41, read: false)]))
        #expect(session.model.conversation?.anchor == nil, "nobody scrolled: the view follows")
        #expect(session.model.conversation?.newBelow == 0)
        #expect(session.screen.contains("alice's next message"), "\(session.screen)")
        #expect(!session.screen.contains("new"), "no '↓ 1 new' while at the bottom")
    }

    @Test func onlyScrollingUpUnpinsAndEndPinsAgain() {
        var session = F.opened()
        session.send(.olderLoaded(dialogID: F.bobDialog.id, before: F.history()[0].cursor,
                                  F.history(30, firstID: 100).map { var m = $0; m.dateSent -= 3600; return m }, exhausted: true))
        session.send(.messagesArrived([F.message(4000, from: F.bob, "still following", at: F.t0 + 50, read: false)]))
        #expect(session.screen.contains("still following"))
        session.send(.key(.pageUp))
        session.send(.messagesArrived([F.message(4001, from: F.bob, "below now", at: F.t0 + 51, read: false)]))
        #expect(session.model.conversation?.newBelow == 1)
        session.send(.key(.end))
        session.send(.messagesArrived([F.message(4002, from: F.bob, "following again", at: F.t0 + 52, read: false)]))
        #expect(session.screen.contains("following again"))
    }

    @Test func aMessageHeardBeforeTheFirstPageIsKept() {
        var session = F.Session(F.model())
        session.send(.dialogsLoaded([F.bobDialog]))
        session.send(.key(.enter))
        session.send(.messagesArrived([F.message(9100, from: F.bob, "early bird", at: F.t0 + 60, read: false)]))
        session.send(.conversationLoaded(F.bobDialog, messages: F.history(), pending: [], names: F.names))
        #expect(session.model.conversation?.messages.last?.id == F.id(9100))
        #expect(session.screen.contains("early bird"))
    }
}

extension UpdateTests {
    /// Ids made by different clients do not sort by time: a message of the newest second
    /// whose id sorts first still shows at the bottom, where it arrived.
    @Test func aMessageOfTheNewestSecondGoesBelowWhateverItsID() {
        var session = F.opened(messages: F.history(5, firstID: 5000))
        let last = session.model.conversation!.messages.last!
        var early = F.message(1, from: F.bob, "same second, small id", at: last.dateSent, read: false)
        early.id = "000000000000000000000001"
        session.send(.messagesArrived([early]))
        #expect(session.model.conversation?.messages.last?.id == early.id)
        #expect(session.screen.contains("same second, small id"))
    }

    /// What history brings (a gap filled, the server or the cache asked) keeps history's
    /// order, by date then id: a message sent before the last one shown goes above it.
    @Test func aMessageFromHistoryKeepsHistorysOrderWithinASecond() {
        var session = F.opened(messages: F.history(5, firstID: 5000))
        let last = session.model.conversation!.messages.last!
        var earlier = F.message(1, from: F.bob, "sent first, fetched late", at: last.dateSent, read: false)
        earlier.id = "000000000000000000000001"
        session.send(.historyArrived([earlier]))
        let ids = session.model.conversation!.messages.map(\.id)
        #expect(ids.last == last.id)
        #expect(ids.firstIndex(of: earlier.id)! < ids.firstIndex(of: last.id)!)
    }
}
