import Testing
import ChatView
import Diagnostics
import Messaging
@testable import MessageCache
@testable import ChatctlCLI
@testable import Presentation
import ChatIdentifiers

/// The chat view's edge, where it can be tested without a terminal.
@Suite struct ChatEdgeTests {
    @Test func anEnterWithTextRightBehindItIsANewLineOfAPaste() {
        let typed: [TerminalInput] = [.key(.character("a")), .key(.enter), .key(.character("b")), .key(.enter)]
        #expect(ChatTerminal.pastedBursts(typed) == [.key(.character("a")), .key(.newline), .key(.character("b")), .key(.enter)],
                "the last Enter sends")
        #expect(ChatTerminal.pastedBursts([.key(.enter)]) == [.key(.enter)])
    }

    @Test func whatOthersWroteIsMadeSafeForTheTerminal() {
        let message = CachedMessage(id: "m1", dialogID: "d1", senderID: 7, dateSent: 100, text: "hi\u{1B}]0;owned\u{7} there", rawJSON: "{}",
                                    readIDs: [7])
        let shown = ChatViewRecords.message(message, me: 1, names: [7: "eve\u{1B}[2J"])
        #expect(shown.text == "hi there")
        #expect(shown.senderName == "eve")
        #expect(!shown.outgoing && !shown.readByMe)
    }

    /// The status line: a session chat cannot authenticate with says what to do (the view
    /// never asks for a password); an outage says only what went wrong; neither carries
    /// control sequences from the server's words.
    @Test func theStatusLineKeepsTheHintOfAnAuthenticationFailure() {
        let refused = Failure(.authentication, "check session: the session has expired\u{1B}[2J",
                              hint: "renew it with the password from CHATCTL_PASSWORD")
        #expect(ChatViewFeed.state(.lost(refused), now: 10)
                == .offline("check session: the session has expired (renew it with the password from CHATCTL_PASSWORD)", retryAt: nil))
        let outage = Failure(.temporary, "cannot reach 127.0.0.1:5222", hint: "check the network")
        #expect(ChatViewFeed.state(.retrying(seconds: 2, ceiling: 30, after: outage), now: 10)
                == .offline("cannot reach 127.0.0.1:5222", retryAt: 12))
    }

    /// Two groups named alike are told apart in the view's list as `dialogs` tells them apart,
    /// by the end of the id; the shown title is made safe like any other.
    @Test func theListShowsASharedTitleWithTheEndOfTheId() {
        let feed = ChatViewFeed(me: 1) { _ in }
        let dialog = { (id: DialogID) in CachedDialog(id: id, type: .group, name: "team\u{1B}[2J", occupantIDs: [1, 2], updatedAt: 1, rawJSON: "") }
        let event = feed.screenEvent(for: .dialogs([dialog("5f000000000000000a1234ab"), dialog("5f000000000000000c0ffee0")],
                                                  shownTitles: ["5f000000000000000a1234ab": "team\u{1B}[2J (a1234ab)"]))
        guard case .dialogsLoaded(let list) = event else { Issue.record("\(String(describing: event))"); return }
        #expect(list.map(\.title) == ["team (a1234ab)", "team"])
    }

    @Test func aMessageOfOnlyAttachmentsShowsNoPlaceholderText() {
        let json = #"[{"type":"image","id":"u1","name":"cat.jpg","size":1024}]"#
        let message = CachedMessage(id: "m2", dialogID: "d1", senderID: 1, dateSent: 100, text: "[attachment]", rawJSON: "{}",
                                    deliveredIDs: [1, 7], readIDs: [1], attachmentsJSON: json)
        let shown = ChatViewRecords.message(message, me: 1, names: [:])
        #expect(shown.text.isEmpty)
        #expect(shown.attachments == [ShownAttachment(kind: "image", name: "cat.jpg", size: 1024, uid: "u1")])
        #expect(shown.outgoing && shown.delivery == .delivered)
    }

    @Test func outboxEntriesShowHowFarTheyGot() {
        let entry = OutboxEntry(rowID: 1, clientMessageID: "c1", dialogID: "d1", text: "hello", createdAt: 100, attempts: 1,
                                lastError: "timed out", claimedBy: nil, claimedAt: nil)
        #expect(ChatViewRecords.pending(entry, me: 1, inFlight: []).delivery == .undelivered("timed out"))
        #expect(ChatViewRecords.pending(entry, me: 1, inFlight: ["c1"]).delivery == .sending)
        var fresh = entry
        fresh.lastError = nil
        #expect(ChatViewRecords.pending(fresh, me: 1, inFlight: []).delivery == .queued)
    }
}
