internal import CSQLite

extension Database {
    /// Rows changed since the connection opened (`sqlite3_total_changes64`): whether a call wrote anything.
    package var totalChanges: Int {
        guard let handle = try? openHandle(sql: nil) else { return 0 }
        return Int(sqlite3_total_changes64(handle))
    }
}
