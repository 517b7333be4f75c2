import MessageCache

/// The display names a chat engine has told (by user id): a sender new to it is looked up
/// in the cache, and first over REST when connected, once; each event that names people
/// comes after the names it needs (`.names`).
struct SenderNames {
    private var known: [Int: String] = [:]
    /// Asked of the server already, found or not (a deleted account): not asked again.
    private var asked: Set<Int> = []

    /// The names of `ids` not told before, found now (over REST first when `online`, once an id).
    mutating func learn(_ ids: Set<Int>, service: MessagingService, online: Bool) -> [Int: String] {
        let unknown = ids.filter { $0 > 0 && known[$0] == nil }
        guard !unknown.isEmpty else { return [:] }
        let unasked = unknown.subtracting(asked)
        if online && !unasked.isEmpty, (try? service.fetchUsers(Array(unasked))) != nil { asked.formUnion(unasked) }
        let found = service.displayNames(unknown)
        known.merge(found) { $1 }
        return found
    }

    /// The names of `ids` as the server has them now (asked once more, in pages of 100):
    /// those that changed since they were told (someone renamed themselves).
    mutating func refresh(_ ids: Set<Int>, service: MessagingService) -> [Int: String] {
        let ids = ids.filter { $0 > 0 }
        guard !ids.isEmpty, (try? service.fetchUsers(Array(ids), again: true)) != nil else { return [:] }
        asked.formUnion(ids)
        let changed = service.displayNames(ids).filter { known[$0.key] != $0.value }
        known.merge(changed) { $1 }
        return changed
    }
}
