import Testing
@testable import MessageCache
import SQLiteStore
import ChatIdentifiers

/// Delivered and read ids per message, their migration, receipts, status, unread counts.
@Suite("MessageCache: read state")
struct ReadStateTests {
    static let dialogID = DialogID(hexID(1, prefix: "d"))

    func mine(_ n: Int, delivered: [Int] = [], read: [Int] = [], raw: String? = nil) -> CachedMessage {
        var m = message(n, dialog: Self.dialogID, date: 1000 + n, sender: 1)
        m.deliveredIDs = delivered
        m.readIDs = read
        if let raw { m.rawJSON = raw }
        return m
    }

    @Test func migrationTwoFillsTheListsFromTheCachedJSON() throws {
        let fixture = try CacheFixture()
        do {
            // A cache as version 1 left it.
            let db = try Database(path: fixture.path)
            try Migrator([CacheSchema.migrator.migrations[0]]).migrate(db)
            let rows: [(String, String)] = [
                (hexID(1), #"{"_id":"a","delivered_ids":[1,2],"read_ids":[1]}"#),
                (hexID(2), #"{"_id":"b","delivered_ids":"7, 8","read_ids":["7",8.0]}"#),
                (hexID(3), #"{"_id":"c","delivered_ids":null}"#),
                (hexID(4), #"{"_id":"d","delivered_ids":[{"x":1},"x",3]}"#),
                (hexID(5), "not json"),
            ]
            for (id, raw) in rows {
                try db.run("INSERT INTO messages (id, dialog_id, sender_id, date_sent, text, raw_json) VALUES (?, 'd', 1, 1, '', ?)",
                           [.text(id), .text(raw)])
            }
            try db.close()
        }
        let cache = try fixture.open()
        let lists = try (1...5).map { n -> ([Int], [Int]) in
            let m = try #require(try cache.message(id: hexID(n)))
            return (m.deliveredIDs, m.readIDs)
        }
        #expect(lists[0] == ([1, 2], [1]))
        #expect(lists[1] == ([7, 8], [7, 8]), "a list given as text, numbers given as strings or reals")
        #expect(lists[2] == ([], []))
        #expect(lists[3] == ([3], []), "what is not a number is dropped")
        #expect(lists[4] == ([], []), "JSON that does not parse is left alone")
        #expect(try cache.database.userVersion() == CacheSchema.migrator.migrations.count)
    }

    /// A cache whose id lists are comma-separated text (as versions 2 to 7 kept them)
    /// opens with every list a JSON array, and each reads as the old text read.
    @Test func migrationEightMakesTheListsArraysThatReadTheSame() throws {
        let fixture = try CacheFixture()
        let texts = ["", "1", "1,2,100", ",1,,2,", "+3,-4", "7,abc,8", "007,8", "9223372036854775807,9223372036854775808"]
        func oldReading(_ text: String) -> [Int] { text.split(separator: ",").compactMap { Int($0) } }
        do {
            let db = try Database(path: fixture.path)
            try Migrator(Array(CacheSchema.migrator.migrations.prefix(7))).migrate(db)
            for (n, text) in texts.enumerated() {
                try db.run("""
                    INSERT INTO messages (id, dialog_id, sender_id, date_sent, text, raw_json, delivered_ids, read_ids)
                    VALUES (?, 'd', 1, ?, '', '{}', ?, ?)
                    """, [.text(hexID(n)), .integer(Int64(n)), .text(text), .text(texts[texts.count - 1 - n])])
                try db.run("INSERT INTO dialogs (id, type, name, occupant_ids, raw_json) VALUES (?, 2, 'x', ?, '{}')",
                           [.text(hexID(n, prefix: "d")), .text(text)])
            }
            try db.close()
        }
        let cache = try fixture.open()
        #expect(try cache.database.userVersion() == CacheSchema.migrator.migrations.count)
        for (n, text) in texts.enumerated() {
            let read = try #require(try cache.message(id: hexID(n)))
            #expect(read.deliveredIDs == oldReading(text))
            #expect(read.readIDs == oldReading(texts[texts.count - 1 - n]))
            #expect(try cache.dialog(id: DialogID(hexID(n, prefix: "d")))?.occupantIDs == oldReading(text))
        }
        let lists = try cache.database.query("""
            SELECT delivered_ids FROM messages UNION ALL SELECT read_ids FROM messages UNION ALL SELECT occupant_ids FROM dialogs
            """) { $0.string(0) ?? "" }
        #expect(lists.count == texts.count * 3)
        for list in lists {
            #expect(try cache.database.queryFirst("SELECT json_type(?)", [.text(list)]) { $0.string(0) } == "array", "\(list)")
        }
        // What the cache writes now is an array too.
        let written = mine(99, delivered: [4, 5], read: [])
        try cache.upsertMessages([written])
        #expect(try cache.database.queryFirst("SELECT delivered_ids || read_ids FROM messages WHERE id = ?", [.text(written.id)]) {
            $0.string(0)
        } == "[4,5][]")
    }

    @Test func listsRoundTripAndServerListsMergeWithWhatMarkersAdded() throws {
        let cache = try CacheFixture().open()
        #expect(try cache.upsertMessages([mine(1, delivered: [1], read: [1])]) == 1)
        // A marker says user 2 has it; then the server's copy, which does not know yet.
        let changed = try cache.recordReceipts([MessageReceipt(messageID: hexID(1, prefix: "e"), userID: 2, kind: .delivered)])
        #expect(changed.map(\.deliveredIDs) == [[1, 2]])
        #expect(try cache.upsertMessages([mine(1, delivered: [1], read: [1])]) == 0)
        var m = try #require(try cache.message(id: hexID(1, prefix: "e")))
        #expect(m.deliveredIDs == [1, 2], "the server's list first, then what the marker taught")
        #expect(m.status == .delivered)
        // Later the server knows more, in its own order; nothing is lost or repeated.
        try cache.upsertMessages([mine(1, delivered: [1, 3, 2], read: [1, 3])])
        m = try #require(try cache.message(id: hexID(1, prefix: "e")))
        #expect(m.deliveredIDs == [1, 3, 2] && m.readIDs == [1, 3])
        #expect(m.status == .read)
        // A copy heard over chat says nothing about receipts: the lists stay.
        try cache.upsertMessages([mine(1, raw: #"{"_id":"x","changed":1}"#)])
        m = try #require(try cache.message(id: hexID(1, prefix: "e")))
        #expect(m.deliveredIDs == [1, 3, 2] && m.rawJSON == #"{"_id":"x","changed":1}"#)
    }

    @Test func receiptsMoveTheStatusForwardOnceAndSkipUnknownMessages() throws {
        let cache = try CacheFixture().open()
        try cache.upsertMessages([mine(1, delivered: [1], read: [1]), mine(2, delivered: [1], read: [1])])
        let id1 = hexID(1, prefix: "e"), id2 = hexID(2, prefix: "e")
        #expect(try cache.message(id: id1)?.status == .sent, "the sender's own ids do not count")
        let changed = try cache.recordReceipts([
            MessageReceipt(messageID: id1, userID: 2, kind: .delivered),
            MessageReceipt(messageID: id1, userID: 2, kind: .read),
            MessageReceipt(messageID: id2, userID: 3, kind: .read),
            MessageReceipt(messageID: hexID(99), userID: 2, kind: .read),
        ])
        #expect(changed.map(\.id) == [id1, id2])
        #expect(try cache.message(id: id1).map { ($0.deliveredIDs, $0.readIDs, $0.status) }! == ([1, 2], [1, 2], .read))
        #expect(try cache.message(id: id2).map { ($0.deliveredIDs, $0.readIDs) }! == ([1, 3], [1, 3]), "read implies delivered")
        #expect(try cache.recordReceipts([MessageReceipt(messageID: id1, userID: 2, kind: .delivered)]).isEmpty, "known already")
    }

    @Test(arguments: [
        ([1], [1], MessageStatus.sent), ([], [], .sent), ([1, 2], [1], .delivered), ([1, 2], [1, 2], .read),
        ([1], [1, 3], .read), ([2, 3], [], .delivered),
    ] as [([Int], [Int], MessageStatus)])
    func statusCountsOnlyOtherUsers(delivered: [Int], read: [Int], expected: MessageStatus) {
        #expect(mine(1, delivered: delivered, read: read).status == expected)
    }

    @Test func searchStillReturnsSnippetAndScoreAfterTheNewColumns() throws {
        let cache = try CacheFixture().open()
        var m = message(1, dialog: Self.dialogID, date: 1, text: "find the needle here")
        m.deliveredIDs = [1, 2]
        try cache.upsertMessages([m])
        let hit = try #require(try cache.search("needle").first)
        #expect(hit.snippet.contains("[needle]"))
        #expect(hit.message.deliveredIDs == [1, 2])
    }

    @Test func unreadCountsSetNamedDialogsAndOptionallyTheOthers() throws {
        let cache = try CacheFixture().open()
        try cache.upsertDialogs([dialog(1), dialog(2), dialog(3)])  // unread 1, 2, 3 as listed
        #expect(try cache.setUnreadCounts([DialogID(hexID(1, prefix: "d")): 7], others: nil) == 1)
        #expect(try cache.dialogs().sorted { $0.id < $1.id }.map(\.unreadCount) == [7, 2, 3])
        #expect(try cache.setUnreadCounts([DialogID(hexID(2, prefix: "d")): 2, "unknown": 5], others: 0) == 2)
        #expect(try cache.dialogs().sorted { $0.id < $1.id }.map(\.unreadCount) == [0, 2, 0])
        _ = try cache.setUnreadCounts([DialogID(hexID(2, prefix: "d")): -4], others: nil)
        #expect(try cache.dialog(id: DialogID(hexID(2, prefix: "d")))?.unreadCount == 0, "a negative count from the server is 0")
    }
}

/// The id lists read on the bytes take what `Int("…")` takes of each comma-separated part.
@Suite("MessageCache: id lists")
struct UserIDListTests {
    @Test(arguments: ["", "1", "1,2,100", ",1,,2,", "+3,-4", "7,abc,8", "9223372036854775807,9223372036854775808",
                      "-9223372036854775808,-9223372036854775809", "1 ,2", "-,+,5", "١,2"])
    func readsWhatIntReadsOfEachPart(_ text: String) {
        let expected = text.split(separator: ",").compactMap { Int($0) }
        #expect(ChatCache.userIDs(text) == expected)
        #expect(ChatCache.userIDs(ChatCache.userIDList(expected)) == expected)
    }
}
