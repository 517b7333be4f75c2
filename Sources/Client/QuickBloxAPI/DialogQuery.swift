import ChatIdentifiers

/// What `QuickBloxClient.dialogs(_:)` asks for: newest activity first.
package struct DialogQuery: Sendable, Equatable {
    /// Page size; 100 is always accepted (the maximum is unconfirmed).
    package var limit: Int
    package var skip: Int
    /// `type[in]=…`; nil for every type.
    package var types: [QBDialogType]?
    /// `updated_at[gt]=…`, unix seconds: only dialogs changed since then.
    package var updatedAfter: Int?
    /// `_id[in]=…`: only these dialogs (e.g. one a system notification named).
    package var ids: [DialogID]?

    package init(limit: Int = 100, skip: Int = 0, types: [QBDialogType]? = nil, updatedAfter: Int? = nil, ids: [DialogID]? = nil) {
        self.limit = limit; self.skip = skip; self.types = types; self.updatedAfter = updatedAfter; self.ids = ids
    }

    /// The query string pairs, in the order docs/protocol.md lists them.
    var queryItems: [(String, String)] {
        var items = [("limit", String(limit)), ("skip", String(skip)), ("sort_desc", "last_message_date_sent")]
        if let types { items.append(("type[in]", types.map { String($0.rawValue) }.joined(separator: ","))) }
        if let updatedAfter { items.append(("updated_at[gt]", String(updatedAfter))) }
        if let ids { items.append(("_id[in]", ids.map(\.rawValue).joined(separator: ","))) }
        return items
    }
}
