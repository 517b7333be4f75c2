import Foundation
import Testing
import MessageCache
import Messaging
@testable import Presentation

/// `history` and `listen` show what a reply quotes and whom a forward is from,
/// read from the UI Kits' custom parameters; `history --ids` starts each line with the id.
@Suite struct QuoteLineTests {
    /// A message carrying a reply or forward as the UI Kits send it: three string
    /// parameters, the originals a JSON array inside a string.
    static func message(_ text: String, _ action: String, name: String? = "alice\u{1B}[31m") -> CachedMessage {
        let originals = #"[{\"_id\":\"6b0db884edb3b3d9cddf1301\",\"chat_dialog_id\":\"6b0db884c4ca891d2141e1c9\",\"message\":\"lunch at noon?\\nor later\",\"sender_id\":3,\"date_sent\":1764460000000}]"#
        let origin = name.map { #","origin_sender_name":"\#($0.replacingOccurrences(of: "\u{1B}", with: "\\u001b"))""# } ?? ""
        let raw = #"{"_id":"6b0db884edb3b3d9cddf1330","chat_dialog_id":"6b0db884c4ca891d2141e1c9","date_sent":1764460800,"message":"\#(text)","sender_id":2,"qb_message_action":"\#(action)","qb_original_messages":"\#(originals)"\#(origin)}"#
        return CachedMessage(id: "6b0db884edb3b3d9cddf1330", dialogID: "6b0db884c4ca891d2141e1c9", senderID: 2, dateSent: 1_764_460_800,
                             text: text, rawJSON: raw)
    }

    @Test func aReplyShowsItsQuoteFirstThenItsWords() {
        #expect(QuoteLine.body(of: Self.message("sure", "reply"), names: [:]) == "↪ alice: lunch at noon?…\nsure")
        let line = ListenOutput.line(Self.message("sure", "reply"), title: "ops", sender: "Bob", outgoing: false, zone: .utc)
        #expect(line == "00:00 [ops] Bob: ↪ alice: lunch at noon?…\n    sure\n")
    }

    @Test func aForwardWithoutWordsShowsOnlyWhomItIsFrom() {
        #expect(QuoteLine.body(of: Self.message("[Forwarded_Message]", "forward"), names: [:])
                == "↪ forwarded from alice: lunch at noon?…")
        #expect(QuoteLine.body(of: Self.message("fyi", "forward"), names: [:]) == "↪ forwarded from alice: lunch at noon?…\nfyi")
    }

    @Test func withoutANameTheQuoteNamesTheSenderAsKnown() {
        #expect(QuoteLine.of(Self.message("sure", "reply", name: nil), names: [3: "Alice A."]) == "↪ Alice A.: lunch at noon?…")
    }

    @Test func aPlainMessageIsUnchanged() {
        let plain = CachedMessage(id: "6b0db884edb3b3d9cddf1330", dialogID: "d", senderID: 2, dateSent: 1_764_460_800, text: "hi",
                                  rawJSON: #"{"_id":"6b0db884edb3b3d9cddf1330","message":"hi"}"#)
        #expect(QuoteLine.of(plain, names: [:]) == nil)
        #expect(QuoteLine.body(of: plain, names: [:]) == "hi")
    }

    @Test func idsStartEachTranscriptLineOnlyWhenAsked() {
        let plain = CachedMessage(id: "6b0db884edb3b3d9cddf1330", dialogID: "d", senderID: 2, dateSent: 1_764_460_800, text: "hi",
                                  rawJSON: #"{"_id":"6b0db884edb3b3d9cddf1330","message":"hi"}"#)
        var transcript = Transcript(me: 1, names: [2: "bob"], width: nil, color: false)
        #expect(!transcript.line(plain).contains("6b0db884edb3b3d9cddf1330"))
        transcript.showIDs = true
        #expect(transcript.line(plain).hasPrefix("6b0db884edb3b3d9cddf1330 "))
        #expect(transcript.line(plain).hasSuffix(" bob: hi\n"))
    }
}
