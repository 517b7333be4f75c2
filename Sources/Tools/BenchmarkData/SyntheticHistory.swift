import MessageCache
import ChatIdentifiers

/// The cache contents `make bench` measures against, the same every run:
/// `dialogs` group dialogs of `messagesPerDialog` messages each. Dialog `i`
/// (from 0) has id `dialogID(i)` and name `bench-i`; message `k` of dialog `i`
/// is sent at `startDate + k * 60 + i`. Texts draw from common words (`hello`,
/// `deploy`, ...) and rare ones (`zeta0042`, ...).
package struct SyntheticHistory: Sendable {
    package var dialogs: Int
    package var messagesPerDialog: Int
    package var startDate: Int

    package init(dialogs: Int, messagesPerDialog: Int, startDate: Int = 1_600_000_000) {
        precondition(dialogs >= 0 && messagesPerDialog >= 0, "counts must not be negative")
        self.dialogs = dialogs; self.messagesPerDialog = messagesPerDialog; self.startDate = startDate
    }

    /// Writes the history into `cache` in one import; returns the number of
    /// messages added (0 for ones already cached).
    @discardableResult
    package func load(into cache: ChatCache) throws(MessageCacheError) -> Int {
        var random = SplitMix64(seed: 0x5EED)
        return try cache.importMessages { batch in
            var records: [CachedDialog] = []
            for d in 0..<dialogs {
                let dialogID = Self.dialogID(d)
                let occupants = [1, 2 + d % 50, 100 + d]
                var lastText = ""
                var lastDate: Int?
                for k in 0..<messagesPerDialog {
                    let id = Self.hex(UInt64(0x5E00_0000_0000) &+ UInt64(d) << 24 &+ UInt64(k), width: 24)
                    let date = startDate + k * 60 + d
                    let sender = occupants[Int(random.next() % UInt64(occupants.count))]
                    let text = Self.text(&random)
                    let json = #"{"_id":"\#(id)","chat_dialog_id":"\#(dialogID)","message":"\#(text)","sender_id":\#(sender),"recipient_id":0,"date_sent":\#(date),"read_ids":[\#(sender)],"delivered_ids":[\#(sender)],"attachments":[]}"#
                    try batch.add(CachedMessage(id: id, dialogID: dialogID, senderID: sender, recipientID: 0,
                                                dateSent: date, text: text, rawJSON: json))
                    lastText = text
                    lastDate = date
                }
                let json = #"{"_id":"\#(dialogID)","type":2,"name":"bench-\#(d)","occupants_ids":[\#(occupants.map(String.init).joined(separator: ","))],"last_message":"\#(lastText)","last_message_date_sent":\#(lastDate.map(String.init) ?? "null"),"unread_messages_count":0,"updated_at":"2020-09-13T12:26:40Z"}"#
                records.append(CachedDialog(
                    id: dialogID, type: .group, name: "bench-\(d)", occupantIDs: occupants,
                    lastMessage: lastDate == nil ? nil : lastText, lastMessageDateSent: lastDate,
                    unreadCount: 0, updatedAt: startDate, rawJSON: json))
            }
            try cache.upsertDialogs(records)  // joins the import's transaction
        }
    }

    /// The id of dialog `index`.
    package static func dialogID(_ index: Int) -> DialogID {
        DialogID(hex(UInt64(0xD1A1_0000_0000) &+ UInt64(index), width: 24))
    }

    private static let commonWords = [
        "hello", "deploy", "meeting", "lunch", "review", "build", "release", "coffee", "ticket", "server",
        "tomorrow", "today", "please", "thanks", "update", "merge", "branch", "test", "failed", "passed",
        "customer", "invoice", "design", "draft", "call", "agenda", "notes", "budget", "report", "weekend",
        "monday", "friday", "database", "cache", "latency", "outage", "incident", "metrics", "dashboard", "alert",
    ]

    private static func text(_ random: inout SplitMix64) -> String {
        let count = 5 + Int(random.next() % 10)
        var words: [String] = []
        words.reserveCapacity(count)
        for _ in 0..<count {
            let r = random.next()
            if r % 10 < 7 {
                words.append(commonWords[Int((r >> 8) % UInt64(commonWords.count))])
            } else {
                words.append("zeta" + hex((r >> 8) % 5000, width: 4))
            }
        }
        return words.joined(separator: " ")
    }

    private static func hex(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 16)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A small deterministic generator for reproducible benchmark data.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
