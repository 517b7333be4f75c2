// The transaction of one turn of the event loop (group commit, docs/protocol.md §7): the
// XMPP side's `TurnCommit` decides when it begins and ends; the SQL stays here.
internal import SQLiteStore

extension ChatStore {
    /// Whether a transaction is open: the turn's, or one SQLite has not rolled back by itself.
    package var isInTransaction: Bool { db.isInTransaction }

    /// Opens the turn's transaction; dialogs' last messages wait for `commitTurn`.
    package func beginTurn() throws {
        try db.begin()
        deferLastMessages()
    }

    /// Writes the dialogs' last messages (once per dialog) and commits. On a failure nothing
    /// of the turn stands: it is rolled back and the error thrown.
    package func commitTurn() throws {
        do {
            do { try writeLastMessages() } catch { forgetLastMessages(); throw error }
            if commitsToFail > 0 {
                commitsToFail -= 1
                throw SQLiteError(extendedCode: .full, message: "database or disk is full (a test's)")
            }
            try db.commit()
        } catch {
            try? db.rollback()
            throw error
        }
    }
}
