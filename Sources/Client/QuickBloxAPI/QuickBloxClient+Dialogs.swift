import HTTPTransport
import ChatIdentifiers

/// Dialog endpoints (docs/protocol.md §5). All go through `send`, so they share its
/// retries, token handling and error parsing (403 not allowed, 404 unknown dialog).
extension QuickBloxClient {
    /// `GET /chat/Dialog.json?limit=&skip=&sort_desc=last_message_date_sent[&type[in]=][&updated_at[gt]=]`.
    package func dialogs(_ query: DialogQuery = DialogQuery()) throws(QuickBloxError) -> QBDialogPage {
        try dialogPage(query).page
    }

    /// Every dialog matching `query`, from `query.skip` on, fetching page after page until
    /// a short page (or `total_entries` is reached). Dialogs that move between pages
    /// while paging are kept once. Throws `.invalidResponse` if the server repeats a
    /// whole page (it ignores `skip`) or more than `maxPages` pages would be needed.
    package func allDialogs(_ query: DialogQuery = DialogQuery(), maxPages: Int = 100) throws(QuickBloxError) -> [QBDialog] {
        var query = query
        var seen: Set<DialogID> = []
        var dialogs: [QBDialog] = []
        for _ in 0..<max(maxPages, 1) {
            let (page, reportsTotal) = try dialogPage(query)
            var fresh = 0
            for dialog in page.items where seen.insert(dialog.id).inserted {
                dialogs.append(dialog)
                fresh += 1
            }
            // The server may cap the limit asked for; a page is short against what it applied.
            let pageSize = page.limit > 0 ? min(query.limit, page.limit) : query.limit
            if page.items.isEmpty || page.items.count < pageSize { return dialogs }
            if reportsTotal && query.skip + page.items.count >= page.totalEntries { return dialogs }
            if fresh == 0 {
                throw invalidResponse("GET /chat/Dialog.json", "the server sent the same dialogs again at skip=\(query.skip)")
            }
            query.skip += page.items.count
        }
        throw invalidResponse("GET /chat/Dialog.json", "more than \(maxPages) pages of dialogs")
    }

    /// `POST /chat/Dialog.json` with `occupants_ids` as a comma-separated string. For a
    /// private dialog pass the peer alone; the server adds the current user.
    package func createDialog(type: QBDialogType, name: String? = nil, occupantIDs: [Int]) throws(QuickBloxError) -> QBDialog {
        var body: [String: JSONValue] = [
            "type": .int(type.rawValue),
            "occupants_ids": .string(occupantIDs.map(String.init).joined(separator: ",")),
        ]
        if let name { body["name"] = .string(name) }
        let json = try send(.post, "/chat/Dialog.json") { .object(body) }
        return try parseDialog(json, request: "POST /chat/Dialog.json")
    }

    /// `PUT /chat/Dialog/{id}.json`: rename, add occupants (`push_all`), remove them (`pull_all`).
    /// Only what is given is sent. A 403 means the current user may not change the dialog.
    package func updateDialog(id: DialogID, name: String? = nil, addOccupants: [Int] = [],
                             removeOccupants: [Int] = []) throws(QuickBloxError) -> QBDialog {
        var body: [String: JSONValue] = [:]
        if let name { body["name"] = .string(name) }
        if !addOccupants.isEmpty { body["push_all"] = ["occupants_ids": .array(addOccupants.map { .int($0) })] }
        if !removeOccupants.isEmpty { body["pull_all"] = ["occupants_ids": .array(removeOccupants.map { .int($0) })] }
        let path = "/chat/Dialog/\(Self.pathIDs([id.rawValue])).json"
        let json = try send(.put, path) { .object(body) }
        return try parseDialog(json, request: "PUT \(path)")
    }

    /// `DELETE /chat/Dialog/{id}[,{id}].json[?force=1]`; `force` deletes for every
    /// occupant (owner only), not just the current user. No request for no ids.
    @discardableResult
    package func deleteDialogs(ids: [DialogID], force: Bool = false) throws(QuickBloxError) -> QBDeletionResult {
        guard !ids.isEmpty else { return QBDeletionResult(successfullyDeleted: [], notFound: []) }
        let requested = ids.map(\.rawValue)
        let json = try send(.delete, "/chat/Dialog/\(Self.pathIDs(requested)).json", query: force ? [("force", "1")] : [])
        return QBDeletionResult(json: json, requested: requested)
    }

    // MARK: - Helpers

    /// One page, and whether the server reported `total_entries` (paging trusts it only then).
    private func dialogPage(_ query: DialogQuery) throws(QuickBloxError) -> (page: QBDialogPage, reportsTotal: Bool) {
        let json = try send(.get, "/chat/Dialog.json", query: query.queryItems)
        guard let items = json["items"]?.arrayValue else {
            throw invalidResponse("GET /chat/Dialog.json", "no \"items\" array")
        }
        var dialogs: [QBDialog] = []
        for item in items {
            guard let dialog = QBDialog(json: item) else {
                throw invalidResponse("GET /chat/Dialog.json", "a dialog without an _id or a type")
            }
            dialogs.append(dialog)
        }
        let total = json["total_entries"]?.looseInt
        let page = QBDialogPage(totalEntries: total ?? query.skip + dialogs.count,
                                skip: json["skip"]?.looseInt ?? query.skip,
                                limit: json["limit"]?.looseInt ?? query.limit,
                                items: dialogs)
        return (page, total != nil)
    }

    /// The dialog object, bare or wrapped as `{"dialog":{…}}`.
    private func parseDialog(_ json: JSONValue, request: String) throws(QuickBloxError) -> QBDialog {
        let object = json["_id"] == nil && json["dialog"]?.objectValue != nil ? json["dialog"]! : json
        guard let dialog = QBDialog(json: object) else {
            throw invalidResponse(request, "no dialog object with an _id and a type")
        }
        return dialog
    }

    /// Ids for a path segment, comma-joined; each escaped so that no id can change the path.
    static func pathIDs(_ ids: [String]) -> String {
        ids.map { PercentEncoding.encode($0, keeping: .unreserved) }.joined(separator: ",")
    }
}
