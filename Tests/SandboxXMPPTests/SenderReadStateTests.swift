// A message's sender has read it and has it without rows saying so (ChatStore.completed): what
// the sandbox reports must be what it reported when it wrote those rows.
import Foundation
import Testing
import SQLiteStore
@testable import SandboxStorage
@testable import SandboxXMPP

@Suite(.serialized) struct SenderReadStateTests {
    @Test func theSenderIsListedFirstOnceAndNeverCountsItsOwnMessageUnread() throws {
        let f = try MessagingFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.group(owner: ann, [bob])
        let first = try f.post("first", in: dialog, from: ann)
        let second = try f.post("second", in: dialog, from: ann)
        // A database written before: the sender's own rows are there too.
        try f.server.withStorage { store, _, _ in
            try store.db.run("INSERT INTO message_reads (message_id, user_id) VALUES (?, ?)", [.text(first), .int(ann)])
            try store.db.run("INSERT INTO message_deliveries (message_id, user_id) VALUES (?, ?)", [.text(first), .int(ann)])
            // Ann marks her own messages read (REST `mark_as_read` does), Bob one of them.
            try store.markRead(dialogId: dialog, ids: nil, userId: ann)
            try store.markRead(dialogId: dialog, ids: [second], userId: bob)
        }
        let one = try #require(try f.message(first)), two = try #require(try f.message(second))
        #expect(one.readIds == [ann] && one.deliveredIds == [ann])
        #expect(two.readIds == [ann, bob] && two.deliveredIds == [ann, bob])
        #expect(try f.unread(dialog, for: ann) == 0)
        #expect(try f.unread(dialog, for: bob) == 1)
        let rows = try f.server.withStorage { store, _, _ in
            try store.db.queryFirst("SELECT COUNT(*) FROM message_reads WHERE message_id = ?", [.text(second)]) { $0.int(0) } ?? -1
        }
        #expect(rows == 1, "only Bob's: a message costs no rows for its sender")
    }
}
