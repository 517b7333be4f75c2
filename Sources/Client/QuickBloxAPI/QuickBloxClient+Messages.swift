import ChatIdentifiers

/// Message endpoints (docs/protocol.md §6), all through `send`.
extension QuickBloxClient {
    /// `GET /chat/Message.json?chat_dialog_id=&sort_desc=date_sent&limit=&skip=&mark_as_read=0[&date_sent[lt]=][&date_sent[gt]=]`.
    /// Newest first. Sends `mark_as_read=0` unless `query.markAsRead`: reading history
    /// must not mark it read by accident. 403 for a non-occupant, 404 for an unknown dialog.
    package func messages(_ query: MessageQuery) throws(QuickBloxError) -> QBMessagePage {
        let json = try send(.get, "/chat/Message.json", query: query.queryItems)
        guard let items = json["items"]?.arrayValue else {
            throw invalidResponse("GET /chat/Message.json", "no \"items\" array")
        }
        var messages: [QBMessage] = []
        for item in items {
            guard let message = QBMessage(json: item, dialogId: query.dialogId) else {
                throw invalidResponse("GET /chat/Message.json", "a message without an _id")
            }
            messages.append(message)
        }
        return QBMessagePage(skip: json["skip"]?.looseInt ?? query.skip,
                             limit: json["limit"]?.looseInt ?? query.limit,
                             totalEntries: json["total_entries"]?.looseInt,
                             items: messages)
    }

    /// `POST /chat/Message.json`: stores a message and, with `sendToChat`, delivers it live
    /// to the occupants (without it, it is only stored). `custom` keys go at the top level
    /// and cannot replace the protocol's own keys. Returns the stored message.
    package func sendMessage(dialogId: DialogID, text: String?, sendToChat: Bool = true, markable: Bool = false,
                            custom: [String: JSONValue] = [:],
                            attachments: [QBAttachment] = []) throws(QuickBloxError) -> QBMessage {
        var body = custom.filter { !QBMessage.protocolKeys.contains($0.key) }
        body["chat_dialog_id"] = .string(dialogId.rawValue)
        if let text { body["message"] = .string(text) }
        if sendToChat { body["send_to_chat"] = 1 }
        if markable { body["markable"] = 1 }
        if !attachments.isEmpty { body["attachments"] = .array(attachments.map(\.json)) }
        let json = try send(.post, "/chat/Message.json") { .object(body) }
        // The bare message object; tolerate one wrapped as {"message":{…}}.
        let object = json["_id"] == nil && json["message"]?.objectValue != nil ? json["message"]! : json
        guard let message = QBMessage(json: object, dialogId: dialogId) else {
            throw invalidResponse("POST /chat/Message.json", "no message object with an _id")
        }
        return message
    }

    /// `PUT /chat/Message/{id}[,{id}].json` with `{"read":1,"chat_dialog_id":…}`.
    /// No request for no ids.
    package func markRead(messageIds: [String], dialogId: DialogID) throws(QuickBloxError) {
        guard !messageIds.isEmpty else { return }
        let body: JSONValue = ["read": 1, "chat_dialog_id": .string(dialogId.rawValue)]
        try send(.put, "/chat/Message/\(Self.pathIDs(messageIds)).json") { body }
    }

    /// `DELETE /chat/Message/{id}[,{id}].json[?force=1]`: without `force` the messages go
    /// for the current user only; with it, for everyone (only their sender may). Ids the
    /// server would not delete come back in `notFound` or `wrongPermissions` (or as a 403
    /// for a single id). No request for no ids.
    @discardableResult
    package func deleteMessages(ids: [String], force: Bool = false) throws(QuickBloxError) -> QBDeletionResult {
        guard !ids.isEmpty else { return QBDeletionResult(successfullyDeleted: [], notFound: []) }
        let json = try send(.delete, "/chat/Message/\(Self.pathIDs(ids)).json", query: force ? [("force", "1")] : [])
        return QBDeletionResult(json: json, requested: ids)
    }

    /// `PUT /chat/Message/{id}.json` with `{"chat_dialog_id":…,"message":…}`: replaces a
    /// message's text (its sender only; 403 otherwise). The server answers with an empty
    /// body, so nothing is returned; `message(id:dialogId:)` reads the result back.
    package func editMessage(id: String, dialogId: DialogID, text: String) throws(QuickBloxError) {
        let body: JSONValue = ["chat_dialog_id": .string(dialogId.rawValue), "message": .string(text)]
        try send(.put, "/chat/Message/\(Self.pathIDs([id])).json") { body }
    }

    /// One message of a dialog: `GET /chat/Message.json?chat_dialog_id=&_id=&mark_as_read=0`.
    /// The answer is searched for the id (a server ignoring the filter is still read
    /// right, if the message is on the first page); nil when it is not there.
    package func message(id: String, dialogId: DialogID) throws(QuickBloxError) -> QBMessage? {
        let query = [("chat_dialog_id", dialogId.rawValue), ("_id", id), ("mark_as_read", "0")]
        let json = try send(.get, "/chat/Message.json", query: query)
        guard let items = json["items"]?.arrayValue else {
            throw invalidResponse("GET /chat/Message.json", "no \"items\" array")
        }
        return items.lazy.compactMap { QBMessage(json: $0, dialogId: dialogId) }.first { $0.id == id }
    }

    /// `GET /chat/Message/unread.json[?chat_dialog_ids=a,b]`: the total and the count per
    /// dialog; nil or empty `dialogIds` asks about every dialog.
    package func unreadCounts(dialogIds: [DialogID]? = nil) throws(QuickBloxError) -> QBUnreadCounts {
        var query: [(String, String)] = []
        if let dialogIds, !dialogIds.isEmpty { query.append(("chat_dialog_ids", dialogIds.map(\.rawValue).joined(separator: ","))) }
        let json = try send(.get, "/chat/Message/unread.json", query: query)
        guard let counts = QBUnreadCounts(json: json) else {
            throw invalidResponse("GET /chat/Message/unread.json", "no counts object")
        }
        return counts
    }
}
