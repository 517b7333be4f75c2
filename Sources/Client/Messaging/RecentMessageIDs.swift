/// The ids of the last messages a listener handed on, at most `capacity` of them:
/// enough to tell a message it showed from one another process of the same account
/// cached first (a `sync`, a second `listen`), with memory that stays flat.
struct RecentMessageIDs {
    private var ids: Set<String> = []
    private var order: [String] = []
    private var next = 0
    let capacity: Int

    init(capacity: Int = 4096) { self.capacity = capacity }

    func contains(_ id: String) -> Bool { ids.contains(id) }

    mutating func insert(_ id: String) {
        guard ids.insert(id).inserted else { return }
        if order.count < capacity {
            order.append(id)
        } else {
            ids.remove(order[next])
            order[next] = id
            next = (next + 1) % capacity
        }
    }
}
