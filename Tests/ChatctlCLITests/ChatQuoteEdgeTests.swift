import Testing
import ChatView
import Foundation
@testable import MessageCache
@testable import ChatctlCLI
@testable import Presentation

/// Replies, forwards and the clipboard at the chat view's edge.
@Suite struct ChatQuoteEdgeTests {
    /// A forward from a UI Kit app, as history gives it: the quote shows, named by
    /// `origin_sender_name`, made safe; the apps' placeholder text shows as nothing.
    @Test func aUIKitForwardShowsItsQuoteSafelyAndNotItsPlaceholder() {
        let raw = #"""
        {"_id":"m3","chat_dialog_id":"d1","message":"[Forwarded_Message]","sender_id":7,"date_sent":100,
         "qb_message_action":"forward","origin_sender_name":"car\u001b[2Jol",
         "qb_original_messages":"[{\"_id\":\"m0\",\"message\":\"line one\\u001b]0;owned\\u0007\\nline two\",\"sender_id\":9,\"date_sent\":90000},{\"_id\":\"m1\",\"message\":\"more\",\"sender_id\":9}]"}
        """#
        let message = CachedMessage(id: "m3", dialogID: "d1", senderID: 7, dateSent: 100, text: "[Forwarded_Message]", rawJSON: raw)
        let shown = ChatViewRecords.message(message, me: 1, names: [7: "bob"])
        #expect(shown.text.isEmpty)
        #expect(shown.quote == ShownQuote(action: .forward, senderName: "carol", text: "line one\nline two", more: 1))
    }

    @Test func aReplyNamesItsOriginalsSenderAsKnownWhenTheKitGaveNoName() {
        let raw = #"{"_id":"m4","message":"sure","qb_message_action":"reply","origin_sender_name":"undefined","qb_original_messages":"[{\"_id\":\"m0\",\"message\":\"\",\"sender_id\":9,\"attachments\":[{\"type\":\"image\",\"id\":\"u\",\"name\":\"cat.png\"}]}]"}"#
        let message = CachedMessage(id: "m4", dialogID: "d1", senderID: 7, dateSent: 100, text: "sure", rawJSON: raw)
        let shown = ChatViewRecords.message(message, me: 1, names: [9: "dave"])
        #expect(shown.text == "sure")
        #expect(shown.quote == ShownQuote(action: .reply, senderName: "dave", text: "[image] cat.png"), "a file alone shows as its label")
    }

    @Test func aQueuedReplyShowsItsQuote() {
        var entry = OutboxEntry(rowID: 1, clientMessageID: "c1", dialogID: "d1", text: "ok", createdAt: 100, attempts: 0,
                                lastError: nil, claimedBy: nil, claimedAt: nil)
        entry.customJSON = #"{"origin_sender_name":"Bob","qb_message_action":"reply","qb_original_messages":"[{\"_id\":\"m0\",\"message\":\"ready?\",\"sender_id\":2}]"}"#
        #expect(ChatViewRecords.pending(entry, me: 1, inFlight: []).quote == ShownQuote(action: .reply, senderName: "Bob", text: "ready?"))
    }

    @Test func theClipboardGetsBase64InOSC52() {
        let sequence = ClipboardSequence.osc52("héllo\u{1B}]52;c;x\u{7}")
        #expect(sequence.hasPrefix("\u{1B}]52;c;") && sequence.hasSuffix("\u{07}"))
        let payload = sequence.dropFirst(7).dropLast()
        #expect(!payload.contains("\u{1B}") && !payload.contains("\u{07}"), "nothing of the text can end the sequence")
        #expect(Data(base64Encoded: String(payload)).map { String(decoding: $0, as: UTF8.self) } == "héllo\u{1B}]52;c;x\u{7}")
        #expect(ClipboardSequence.osc52("hi") == "\u{1B}]52;c;aGk=\u{07}")
    }
}
