import Testing
@testable import MessageCache
import TestSupport

@Suite struct PagingTests {
    /// Ten messages per second for five seconds: pages must cut inside a second cleanly.
    func cache() throws -> (ChatCache, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let cache = try ChatCache(path: directory.file("cache.sqlite"))
        let messages = (0..<50).map { i in
            CachedMessage(id: String(format24: i), dialogID: "d1", senderID: 1, dateSent: 1000 + i / 10, text: "m\(i)", rawJSON: "{}")
        }
        try cache.upsertMessages(messages)
        try cache.upsertMessages([CachedMessage(id: String(format24: 99), dialogID: "d2", senderID: 1, dateSent: 1002, text: "other", rawJSON: "{}")])
        return (cache, directory)
    }

    @Test func pagingBackwardsVisitsEveryMessageOnce() throws {
        let (cache, _) = try cache()
        var seen: [String] = []
        var cursor = (Int.max, "")
        while true {
            let page = try cache.messages(dialogID: "d1", beforeDate: cursor.0, id: cursor.1, limit: 7)
            if page.isEmpty { break }
            #expect(page.map(\.dateSent) == page.map(\.dateSent).sorted(), "oldest first")
            seen = page.map(\.text) + seen
            cursor = (page[0].dateSent, page[0].id)
        }
        #expect(seen == (0..<50).map { "m\($0)" })
    }

    @Test func pagingForwardsVisitsEveryMessageOnce() throws {
        let (cache, _) = try cache()
        var seen: [String] = []
        var cursor = (Int.min, "")
        while true {
            let page = try cache.messages(dialogID: "d1", afterDate: cursor.0, id: cursor.1, limit: 6)
            if page.isEmpty { break }
            seen += page.map(\.text)
            cursor = (page.last!.dateSent, page.last!.id)
        }
        #expect(seen == (0..<50).map { "m\($0)" })
        #expect(try cache.newestMessage(dialogID: "d1")?.text == "m49")
    }
}

private extension String {
    init(format24 n: Int) {
        let digits = String(n)
        self = String(repeating: "0", count: 24 - digits.count) + digits
    }
}

extension PagingTests {
    @Test func messagesOfOneSecondAreCounted() throws {
        let (cache, _) = try cache()
        #expect(try cache.messageCount(dialogID: "d1", dateSent: 1002) == 10)
        #expect(try cache.messageCount(dialogID: "d2", dateSent: 1002) == 1)
        #expect(try cache.messageCount(dialogID: "d1", dateSent: 999) == 0)
    }
}
