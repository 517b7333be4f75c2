import SQLiteStore
import ChatIdentifiers

/// Read state: receipts for messages and unread counts of dialogs
/// (docs/protocol.md §6–7). Only the cache's own transactions touch them.
extension ChatCache {
    /// Adds each receipt's user to its message's delivered ids (and, for
    /// `read`, read ids), all in one transaction. A receipt for a message the
    /// cache does not have, or one it already knows, changes nothing. Returns the
    /// messages that changed, as they are stored now, in the order first changed.
    @discardableResult
    package func recordReceipts(_ receipts: [MessageReceipt]) throws(MessageCacheError) -> [CachedMessage] {
        guard !receipts.isEmpty else { return [] }
        return try wrapping {
            try database.transaction {
                var changed: [String: CachedMessage] = [:]
                var order: [String] = []
                for receipt in receipts {
                    let cached = try changed[receipt.messageID] ?? database.firstRecord(
                        "SELECT \(Self.messageColumns) FROM messages m WHERE m.id = ?", [.text(receipt.messageID)], Self.message)
                    guard var message = cached else { continue }
                    let before = message
                    if !message.deliveredIDs.contains(receipt.userID) { message.deliveredIDs.append(receipt.userID) }
                    if receipt.kind == .read, !message.readIDs.contains(receipt.userID) { message.readIDs.append(receipt.userID) }
                    guard message != before else { continue }
                    try database.run(
                        "UPDATE messages SET delivered_ids = ?, read_ids = ? WHERE id = ?",
                        [.text(Self.userIDList(message.deliveredIDs)), .text(Self.userIDList(message.readIDs)), .text(message.id)])
                    if changed[message.id] == nil { order.append(message.id) }
                    changed[message.id] = message
                }
                return order.compactMap { changed[$0] }
            }
        }
    }

    /// Sets the unread counts of cached dialogs, in one transaction: `counts`
    /// by dialog id, and `others` (when given) for every cached dialog not in it.
    /// Returns how many dialogs changed.
    @discardableResult
    package func setUnreadCounts(_ counts: [DialogID: Int], others: Int?) throws(MessageCacheError) -> Int {
        try wrapping {
            try database.transaction {
                var changed = 0
                let ids = try database.query("SELECT id FROM dialogs", []) { $0.string(0) ?? "" }
                for id in ids {
                    guard let count = counts[DialogID(id)] ?? others else { continue }
                    changed += try database.run(
                        "UPDATE dialogs SET unread_count = ?1 WHERE id = ?2 AND unread_count IS NOT ?1",
                        [.integer(Int64(max(0, count))), .text(id)])
                }
                return changed
            }
        }
    }
}
