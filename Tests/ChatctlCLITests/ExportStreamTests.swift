import Foundation
import Testing
import MessageCache
import TestSupport
@testable import ChatctlCLI
@testable import Presentation

/// `chatctl export` reads and writes a page at a time: what it holds is one page,
/// whatever the dialog's length, and pages neither skip nor repeat a message.
@Suite struct ExportStreamTests {
    /// A dialog of `count` messages, several sent in each second (page edges fall inside a second).
    static func dialog(_ count: Int) -> [CachedMessage] {
        (0..<count).map { n in
            let id = String(repeating: "0", count: 16) + String(format: "%08x", n)
            return CachedMessage(id: id, dialogID: "d1", senderID: 2, dateSent: 1_000 + n / 7, text: "message \(n)",
                                 rawJSON: #"{"_id":"\#(id)","message":"message \#(n)","sender_id":2}"#)
        }
    }

    /// What happened, in order: pages read (their size asked) and text written (its messages).
    enum Event: Equatable { case read(asked: Int, got: Int), wrote(messages: Int) }

    /// A page source with the cache's semantics (`messages(dialogID:afterDate:id:limit:)`) over `all`.
    static func source(_ all: [CachedMessage], log: Log) -> (Int, String, Int) throws -> [CachedMessage] {
        { date, id, limit in
            let page = Array(all.lazy.filter { ($0.dateSent, $0.id) > (date, id) }.prefix(limit))
            log.events.append(.read(asked: limit, got: page.count))
            return page
        }
    }

    final class Log { var events: [Event] = [] }

    @Test func aLongDialogIsReadAndWrittenAPageAtATime() throws {
        let all = Self.dialog(10_000)
        let log = Log()
        let stream = ExportStream(pageSize: 256, page: Self.source(all, log: log))
        var writer = JSONLinesExportWriter(me: 1)
        var prepared = 0, written = 0, mostHeld = 0
        var ids: [String] = []
        let count = try stream.run(&writer, header: ExportWriterTests.header, prepare: { message in
            prepared += 1
            mostHeld = max(mostHeld, prepared - written)
            ids.append(message.id)
            return ExportedMessage(message, me: 1, names: [:], attachments: [])
        }, output: { text in
            let lines = text.split(separator: "\n").count
            written += lines
            if lines > 0 { log.events.append(.wrote(messages: lines)) }
        })
        #expect(count == 10_000 && written == 10_000)
        #expect(ids == all.map(\.id), "every message once, oldest first, across pages that split a second")
        #expect(mostHeld <= 256, "never more than a page prepared and not yet written: \(mostHeld)")
        let reads = log.events.compactMap { if case .read(let asked, _) = $0 { asked } else { nil } }
        #expect(reads.count == 40 && reads.allSatisfy { $0 == 256 }, "pages of the size asked: \(reads.count)")
        // Each page is written before the next is read.
        for (index, event) in log.events.enumerated() where index > 0 {
            if case .read = event, case .read(_, let got) = log.events[index - 1] { #expect(got == 0, "two reads without a write between") }
        }
    }

    @Test func theRangeIsExclusiveAtBothEndsAsHistoryTakesIt() throws {
        let all = Self.dialog(700) // seconds 1000 ... 1099, 7 messages each
        let stream = ExportStream(pageSize: 5, since: 1_010, before: 1_020, page: Self.source(all, log: Log()))
        var writer = JSONLinesExportWriter(me: 1)
        var dates: [Int] = []
        let count = try stream.run(&writer, header: ExportWriterTests.header, prepare: { message in
            dates.append(message.dateSent)
            return ExportedMessage(message, me: 1, names: [:], attachments: [])
        }, output: { _ in })
        #expect(count == 9 * 7)
        #expect(dates.first == 1_011 && dates.last == 1_019 && dates == dates.sorted())
    }

    /// The real cache under the page source `export` uses: its keyset pages in SQL.
    @Test func theCachesPagesGiveEveryMessageOnceInOrder() throws {
        let directory = try TemporaryDirectory()
        let cache = try ChatCache(path: directory.file("cache.sqlite"))
        let all = Self.dialog(1_234)
        _ = try cache.upsertMessages(all.shuffled())
        _ = try cache.upsertMessages([CachedMessage(id: "ffffffffffffffffffffffff", dialogID: "other", senderID: 2, dateSent: 1_050,
                                                    text: "elsewhere", rawJSON: "{}")])
        var writer = MarkdownExportWriter(zone: .utc)
        var seen: [String] = []
        var output = ""
        let stream = ExportStream(pageSize: 100, since: 1_000) { date, id, limit in
            try cache.messages(dialogID: "d1", afterDate: date, id: id, limit: limit)
        }
        let count = try stream.run(&writer, header: ExportWriterTests.header, prepare: { message in
            seen.append(message.id)
            return ExportedMessage(message, me: 1, names: [2: "bob"], attachments: [])
        }, output: { output += $0 })
        #expect(seen == all.filter { $0.dateSent > 1_000 }.map(\.id), "after since's second, every one once, in order")
        #expect(count == 1_234 - 7)
        #expect(output.hasSuffix("\(count) messages.\n"))
    }
}
