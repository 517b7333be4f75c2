/// How a transaction takes its locks (`BEGIN DEFERRED|IMMEDIATE|EXCLUSIVE`).
/// Writers use `.immediate`: it takes the write lock up front, so a busy
/// database is waited for by the busy handler instead of failing with
/// `SQLITE_BUSY_SNAPSHOT` half-way through.
package enum TransactionKind: String, Sendable {
    case deferred = "DEFERRED"
    case immediate = "IMMEDIATE"
    case exclusive = "EXCLUSIVE"
}
