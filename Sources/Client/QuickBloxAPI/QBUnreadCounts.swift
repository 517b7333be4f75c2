import ChatIdentifiers

/// `GET /chat/Message/unread.json`: `{"total":15,"{dialogId}":n,…}`.
package struct QBUnreadCounts: Sendable, Equatable {
    package var total: Int
    /// Dialog id → unread messages.
    package var byDialog: [DialogID: Int]
    package init(total: Int, byDialog: [DialogID: Int]) {
        self.total = total; self.byDialog = byDialog
    }

    /// Nil for anything but an object. Counts may be strings; without `total` it is the sum.
    init?(json: JSONValue) {
        guard let members = json.objectValue else { return nil }
        var byDialog: [DialogID: Int] = [:]
        for (key, value) in members where key != "total" {
            if let count = value.looseInt { byDialog[DialogID(key)] = count }
        }
        self.init(total: members["total"]?.looseInt ?? byDialog.values.reduce(0, +), byDialog: byDialog)
    }
}
