// Who sees whose presence, and when a user was last online (docs/protocol.md §7, "Presence and
// last activity"): the XMPP side's `PresenceService` decides; the SQL stays here.
internal import SQLiteStore

extension ChatStore {
    /// The users who share a dialog with `userId` (not `userId`), counting groups of at most
    /// `maxGroupOccupants` occupants only: in a bigger one, each login would tell everyone.
    package func presenceContacts(of userId: Int, maxGroupOccupants: Int) throws -> Set<Int> {
        let ids = try db.query("""
            SELECT DISTINCT o2.user_id FROM dialog_occupants o1
            JOIN dialogs d ON d.id = o1.dialog_id
            JOIN dialog_occupants o2 ON o2.dialog_id = o1.dialog_id AND o2.user_id != o1.user_id
            WHERE o1.user_id = ?
              AND (d.type = \(DialogKind.privateChat.rawValue)
                   OR (SELECT COUNT(*) FROM dialog_occupants c WHERE c.dialog_id = o1.dialog_id) <= ?)
            """, [.int(userId), .int(maxGroupOccupants)]) { $0.int(0) }
        return Set(ids)
    }

    /// When `userId`'s last chat resource went offline (Unix seconds); nil: never seen.
    package func chatLastSeen(_ userId: Int) throws -> Double? {
        try db.queryFirst("SELECT at FROM chat_last_seen WHERE user_id = ?", [.int(userId)]) { $0["at"].doubleValue } ?? nil
    }

    package func recordChatLastSeen(_ userId: Int, at time: Double) throws {
        try db.run("INSERT INTO chat_last_seen (user_id, at) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET at = excluded.at",
                   [.int(userId), .real(time)])
    }
}
