// Dialog and message endpoints (docs/protocol.md §5–6). Every route needs a user session.
import SandboxJSON
import SandboxStorage

extension RESTError {
    static let forbidden = RESTError.list(403, "You don't have appropriate permissions to perform this operation")
}

extension SandboxAPI {
    /// Page size limits: the protocol's default is 100.
    static let defaultPageSize = 100
    static let maxPageSize = 1000

    /// Parameters that are part of the message API, never custom keys.
    private static let reservedMessageKeys: Set<String> = [
        "chat_dialog_id", "message", "send_to_chat", "markable", "attachments", "recipient_id", "date_sent",
        "read", "delivered", "_id", "sender_id", "read_ids", "delivered_ids", "created_at", "updated_at",
        "save_to_history", "dialog_id", "token",
    ]


    /// The dialog object, with its custom data as `data` when it has some: `{"class_name":…,
    /// "_id":…, field: value, …}` (the fields that hold a value).
    private func dialogJSON(_ dialog: DialogRecord) throws(RESTError) -> JSONNode {
        let json = dialog.json(applicationId: chat.applicationId, chatDomain: chat.chatDomain)
        guard let data = try storage({ try objects.dialogData(dialog.id) }), case .object(var members) = json else { return json }
        let fields = data.record.fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
        members.append(("data", .object([("class_name", .string(data.cls.name)), ("_id", .string(data.record.id))] + fields)))
        return .object(members)
    }

    /// A dialog's custom data in a request (docs/protocol.md §5): `data[class_name]` and
    /// `data[field]=value` in a form, or a JSON `data` object; nil when there is none.
    private func dialogData(_ request: RESTRequest) throws(RESTError) -> (className: String?, input: RecordInput)? {
        let (tree, fromForm) = FormTree.of(request)
        guard let data = tree["data"] else { return nil }
        guard case .object(let members) = data else { throw .field(422, "data", "takes data[class_name]=… and data[field]=…") }
        let className = members.first { $0.0 == "class_name" }?.1.text
        if let className, !CustomClass.isValidName(className) {
            throw .field(422, "data[class_name]", "is not a name a class may have: \(className)")
        }
        let input = try recordStorage { try RecordInput(members.filter { $0.0 != "class_name" }, fromForm: fromForm) }
        return (className, input)
    }

    /// `data[class_name]=X&data[field][op]=value` of a dialog list; nil when none is given.
    private func dialogDataFilter(_ request: RESTRequest) throws(RESTError) -> DialogDataFilter? {
        guard let data = FormTree.build(request.parameters)["data"] else { return nil }
        let className = data["class_name"]?.text
        let conditions = try Self.conditions(data.members.filter { $0.0 != "class_name" })
        if className == nil && !conditions.isEmpty {
            // The fields are the class's: without it, no value could be read as its type.
            throw .field(422, "data[class_name]", "can't be blank when data[field] is given")
        }
        let cls = try className.map { (name) throws(RESTError) in try storage { try objects.customClass(name) } } ?? nil
        let criteria = try recordStorage { try RecordCriteria.parse(conditions, in: cls, columns: .dialogData) }
        return DialogDataFilter(className: className, criteria: criteria)
    }

    /// `limit` and `skip`, validated.
    private func paging(_ request: RESTRequest) throws(RESTError) -> (limit: Int, skip: Int) {
        var limit = SandboxAPI.defaultPageSize, skip = 0
        if let text = request.parameter("limit") {
            guard let v = Int(text), v >= 0 else { throw .field(422, "limit", "is not a non-negative integer") }
            limit = min(v == 0 ? SandboxAPI.defaultPageSize : v, SandboxAPI.maxPageSize)
        }
        if let text = request.parameter("skip") {
            guard let v = Int(text), v >= 0 else { throw .field(422, "skip", "is not a non-negative integer") }
            skip = v
        }
        return (limit, skip)
    }

    /// Integers from `name` (comma-separated, spaces allowed) and `name[]` (arrays, JSON or form).
    func integerList(_ request: RESTRequest, _ name: String) throws(RESTError) -> [Int] {
        var out: [Int] = []
        for raw in request.parameters(name) + request.parameters(name + "[]") {
            for part in raw.split(separator: ",") {
                let text = String(part).trimmingCharacters(" ")
                if text.isEmpty { continue }
                guard let v = Int(text), v > 0 else { throw .field(422, name, "is invalid: \(text)") }
                if !out.contains(v) { out.append(v) }
            }
        }
        return out
    }

    /// Ids from a path segment such as `a,b,c`.
    private func pathIds<Session>(_ context: RESTContext<Session>) -> [String] {
        (context.request.pathParameters["ids"] ?? "").split(separator: ",")
            .map { String($0).trimmingCharacters(" ") }.filter { !$0.isEmpty }
    }

    /// The `field[op]=value` filters among `parameters`; a bad one is a 422 on its field.
    private static func filters(_ parameters: [(String, String)], fields: [String: FilterableField]) throws(RESTError) -> [RecordFilter] {
        do { return try RecordFilter.parse(parameters, fields: fields) } catch { throw .field(422, error.field, error.message) }
    }

    /// The dialog a message request names in `chat_dialog_id`, if the user may use it.
    private func namedDialog(_ request: RESTRequest, userId: Int) throws(RESTError) -> DialogRecord {
        guard let dialogId = request.parameter("chat_dialog_id"), !dialogId.isEmpty else {
            throw .field(422, "chat_dialog_id", "can't be blank")
        }
        return try usableDialog(dialogId, userId: userId)
    }

    /// The dialog for a user who may use it: 404 unknown, 403 not an occupant.
    func usableDialog(_ id: String, userId: Int) throws(RESTError) -> DialogRecord {
        guard let dialog = try storage({ try chat.dialog(id: id, viewer: userId) }) else { throw .notFound }
        guard dialog.admits(userId) else { throw .forbidden }
        return dialog
    }

    // MARK: dialogs

    private static let dialogSortColumns: [String: String] = [
        "last_message_date_sent": "d.last_message_date_sent", "updated_at": "d.updated_at", "created_at": "d.created_at",
        "_id": "d.seq", "name": "d.name", "type": "d.type", "user_id": "d.user_id",
        "last_message_user_id": "d.last_message_user_id",
    ]

    /// `sort_desc`/`sort_asc` of a history: the column, ties in send order.
    private static let messageSortColumns: [String: String] = [
        "date_sent": "m.date_sent", "_id": "m.id", "created_at": "m.created_at", "updated_at": "m.updated_at",
        "sender_id": "m.sender_id",
    ]

    /// `count=1` (or `true`): the list answers `{"items_count": N}` only, as the service does.
    func wantsCount(_ request: RESTRequest) -> Bool { ["1", "true"].contains(request.parameter("count") ?? "") }

    func listDialogs(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let (limit, skip) = try paging(r)
        var sort = RecordSort(column: "d.last_message_date_sent", descending: true)
        if let field = r.parameter("sort_desc") ?? r.parameter("sort_asc") {
            guard let column = SandboxAPI.dialogSortColumns[field] else { throw .field(422, "sort", "unsupported field '\(field)'") }
            sort = RecordSort(column: column, descending: r.parameter("sort_desc") != nil)
        }
        let filters = try Self.filters(r.parameters, fields: ChatStore.dialogFields)
        let customData = try dialogDataFilter(r)
        let user = context.session.userId
        let counting = wantsCount(r)
        let (total, items) = try storage {
            try chat.dialogs(for: user, filters: filters, customData: customData, sort: sort, limit: counting ? 0 : limit,
                             skip: counting ? 0 : skip)
        }
        if counting { return .json(200, .object([("items_count", .int(total))])) }
        return .json(200, .object([
            ("total_entries", .int(total)), ("skip", .int(skip)), ("limit", .int(limit)),
            ("items", .array(try items.map { (dialog) throws(RESTError) in try dialogJSON(dialog) })),
        ]))
    }

    func createDialog(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        guard let typeText = r.parameter("type"), let rawType = Int(typeText), let type = DialogKind(rawValue: rawType) else {
            throw .field(422, "type", "must be 1 (public group), 2 (group) or 3 (private)")
        }
        let others = try integerList(r, "occupants_ids").filter { $0 != me }
        let known = try storage { try chat.existingUsers(others) }
        if let unknown = others.first(where: { !known.contains($0) }) {
            throw .field(422, "occupants_ids", "contains an unknown user: \(unknown)")
        }
        let name = r.parameter("name").flatMap { $0.isEmpty ? nil : $0 }
        let photo = r.parameter("photo").flatMap { $0.isEmpty ? nil : $0 }
        let data = try dialogData(r)
        let occupants: [Int]
        switch type {
        case .privateChat:
            guard others.count == 1, let peer = others.first else {
                throw .field(422, "occupants_ids", "a private dialog needs exactly one other occupant")
            }
            if let existing = try storage({ try chat.privateDialog(between: me, peer, viewer: me) }) {
                return .json(200, try dialogJSON(existing))
            }
            occupants = [peer]
        case .group, .publicGroup:
            guard name != nil else { throw .field(422, "name", "can't be blank") }
            occupants = type == .group ? others : []
        }
        let caller = try recordCaller(context.session)
        // The dialog and its custom data together, or neither (a bad value stores no dialog).
        let dialog = try recordStorage {
            try objects.atomically {
                let made = try chat.createDialog(type: type, name: name, photo: photo, ownerId: me, occupants: occupants)
                if let data { _ = try objects.setDialogData(made.id, className: data.className, data.input, caller: caller) }
                return made
            }
        }
        return .json(201, try dialogJSON(dialog))
    }

    func updateDialog(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        let ids = pathIds(context)
        guard ids.count == 1 else { throw .notFound }
        let dialog = try usableDialog(ids[0], userId: me)
        guard dialog.occupantIds.contains(me) else { throw .forbidden }
        let push = try integerList(r, "push_all[occupants_ids]")
        let pull = try integerList(r, "pull_all[occupants_ids]")
        let name = r.parameter("name").flatMap { $0.isEmpty ? nil : $0 }
        let photo = r.parameter("photo")
        let data = try dialogData(r)
        let isOwner = dialog.ownerId == me
        if dialog.type == .privateChat {
            if !(push.isEmpty && pull.isEmpty) { throw .field(422, "occupants_ids", "cannot be changed in a private dialog") }
            if name != nil { throw .field(422, "name", "cannot be set for a private dialog") }
        }
        // A group's name, photo and custom data are its owner's; a public group is wholly its
        // owner's. Any occupant of a group may add others and leave; only the owner removes others.
        if (name != nil || photo != nil || data != nil) && !isOwner { throw .forbidden }
        if dialog.type == .publicGroup && !isOwner && !(push.isEmpty && pull == [me]) { throw .forbidden }
        if pull.contains(where: { $0 != me }) && !isOwner { throw .forbidden }
        let known = try storage { try chat.existingUsers(push) }
        if let unknown = push.first(where: { !known.contains($0) }) {
            throw .field(422, "occupants_ids", "contains an unknown user: \(unknown)")
        }
        let caller = try recordCaller(context.session)
        let replacedFiles = try recordStorage {
            try objects.atomically {
                try chat.updateDialog(id: dialog.id, name: name, photo: photo, push: push, pull: pull)
                return try data.map { try objects.setDialogData(dialog.id, className: $0.className, $0.input, caller: caller) } ?? []
            }
        }
        removeFiles(replacedFiles)
        let removed = pull.filter(dialog.occupantIds.contains)
        if !removed.isEmpty { occupantsRemoved?(dialog.id, removed, me) }
        guard let updated = try storage({ try chat.dialog(id: dialog.id, viewer: me) }) else { throw .notFound }
        return .json(200, try dialogJSON(updated))
    }

    /// Deletes or leaves a dialog (`change`); when that deleted it, its custom data goes too.
    private func removingDialog(_ id: String, _ change: () throws -> Void) throws(RESTError) {
        let files = try storage {
            try objects.removingDialog(id, change, exists: { try chat.dialog(id: id, viewer: nil) != nil })
        }
        removeFiles(files)
    }

    /// The owner with `force=1` deletes for everyone (anyone else is refused); without
    /// it the caller leaves the dialog.
    func deleteDialogs(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let me = context.session.userId
        let force = context.request.parameter("force") == "1"
        let ids = pathIds(context)
        var deleted: [String] = [], notFound: [String] = [], refused: [String] = []
        for id in ids {
            guard let dialog = try storage({ try chat.dialog(id: id, viewer: me) }) else { notFound.append(id); continue }
            if force {
                guard dialog.ownerId == me else { refused.append(id); continue }
                try removingDialog(id) { try chat.deleteDialog(id: id) }
            } else if dialog.occupantIds.contains(me) {
                try removingDialog(id) { try chat.leaveDialog(id: id, userId: me) }
            } else {
                refused.append(id)
                continue
            }
            deleted.append(id)
        }
        if ids.count == 1 {
            if !notFound.isEmpty { throw .notFound }
            if !refused.isEmpty { throw .forbidden }
            return .empty(200)
        }
        return .json(200, .object([
            ("SuccessfullyDeleted", .object([("ids", .array(deleted.map { .string($0) }))])),
            ("NotFound", .object([("ids", .array(notFound.map { .string($0) }))])),
            ("WrongPermissions", .object([("ids", .array(refused.map { .string($0) }))])),
        ]))
    }

    // MARK: messages

    func listMessages(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        let dialog = try namedDialog(r, userId: me)
        let (limit, skip) = try paging(r)
        var column = "m.date_sent"
        if let field = r.parameter("sort_desc") ?? r.parameter("sort_asc") {
            guard let chosen = SandboxAPI.messageSortColumns[field] else { throw .field(422, "sort", "unsupported field '\(field)'") }
            column = chosen
        }
        let sort = RecordSort(column: column, descending: r.parameter("sort_desc") != nil)
        let filters = try Self.filters(r.parameters, fields: ChatStore.messageFields)
        if wantsCount(r) {
            let total = try storage { try chat.messageCount(dialogId: dialog.id, filters: filters, viewer: me) }
            return .json(200, .object([("items_count", .int(total))]))
        }
        let page = { () throws in
            try self.chat.messages(dialogId: dialog.id, filters: filters, sort: sort, limit: limit, skip: skip, viewer: me)
        }
        var items = try storage(page)
        if r.parameter("mark_as_read") != "0" && !items.isEmpty {
            try storage { try chat.markRead(dialogId: dialog.id, ids: items.map(\.id), userId: me) }
            items = try storage(page)
        }
        return .json(200, .object([
            ("skip", .int(skip)), ("limit", .int(limit)), ("items", .array(items.map(\.json))),
        ]))
    }

    /// Attachments from a JSON `attachments` array, or form `attachments[0][type]=…` (a JSON
    /// object keyed "0", "1"… arrives flattened the same way), in the order of their indexes.
    private func attachments(_ request: RESTRequest) -> [MessageAttachment] {
        if case .array(let items)? = request.json?["attachments"] {
            return items.compactMap { item in
                guard case .object(let members) = item else { return nil }
                let fields = members.compactMap { key, value -> (String, String)? in
                    switch value {
                    case .string(let s): return (key, s)
                    case .number(let n): return (key, n)
                    default: return nil
                    }
                }
                return fields.isEmpty ? nil : MessageAttachment(fields: fields)
            }
        }
        var byIndex: [(String, [(String, String)])] = []
        for (name, value) in request.parameters where name.hasPrefix("attachments[") {
            let parts = name.dropFirst("attachments[".count).split(separator: "]", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[1].hasPrefix("[") else { continue }
            let index = String(parts[0]), key = String(parts[1].dropFirst())
            if let i = byIndex.firstIndex(where: { $0.0 == index }) {
                byIndex[i].1.append((key, value))
            } else {
                byIndex.append((index, [(key, value)]))
            }
        }
        // Numeric indexes in numeric order ("2" before "10"); others after them, as they came.
        let ordered = byIndex.enumerated().sorted { a, b in
            (Int(a.element.0) ?? .max, a.offset) < (Int(b.element.0) ?? .max, b.offset)
        }
        return ordered.map { MessageAttachment(fields: $0.element.1) }
    }

    func sendMessage(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        let dialog = try messageDialog(r, userId: me)
        var dateSent: Int?
        if let text = r.parameter("date_sent")?.trimmingCharacters(" "), !text.isEmpty {
            // The client's clock, kept as the service keeps it (a fraction is cut to seconds).
            guard let value = Double(text), value.isFinite, value > 0, value < 1e15 else {
                throw .field(422, "date_sent", "is not a number")
            }
            dateSent = Int(value)
        }
        let body = r.parameter("message") ?? ""
        if body.utf8.count > ChatStore.maxMessageBytes {
            throw .field(422, "message", "is too long (maximum is \(ChatStore.maxMessageBytes) bytes)")
        }
        let files = attachments(r)
        if body.isEmpty && files.isEmpty { throw .field(422, "message", "can't be blank") }
        var custom: [(String, String)] = []
        for (key, value) in r.parameters where !key.contains("[") && !SandboxAPI.reservedMessageKeys.contains(key) {
            if !custom.contains(where: { $0.0 == key }) { custom.append((key, value)) }
        }
        let markable = ["1", "true"].contains(r.parameter("markable") ?? "")
        let stored = try storage {
            try chat.insertMessage(NewMessage(id: nil, dialogId: dialog.id, body: body, senderId: me, attachments: files,
                                              markable: markable, custom: custom, dateSent: dateSent), in: dialog)
        }
        if ["1", "true"].contains(r.parameter("send_to_chat") ?? "") {
            liveDelivery?(stored, dialog)
        }
        return .json(201, stored.json)
    }

    /// The dialog of a new message: `chat_dialog_id`, or with `recipient_id` alone the private
    /// dialog of the caller and that user, made when they have none (as the service does).
    private func messageDialog(_ request: RESTRequest, userId me: Int) throws(RESTError) -> DialogRecord {
        if let dialogId = request.parameter("chat_dialog_id"), !dialogId.isEmpty { return try usableDialog(dialogId, userId: me) }
        guard let text = request.parameter("recipient_id")?.trimmingCharacters(" "), !text.isEmpty else {
            throw .field(422, "chat_dialog_id", "can't be blank")
        }
        guard let peer = Int(text), peer > 0 else { throw .field(422, "recipient_id", "is not a number") }
        guard peer != me else { throw .field(422, "recipient_id", "is the sender") }
        guard try storage({ try chat.existingUsers([peer]) }).contains(peer) else {
            throw .field(422, "recipient_id", "is not a user: \(peer)")
        }
        if let existing = try storage({ try chat.privateDialog(between: me, peer, viewer: me) }) { return existing }
        return try storage { try chat.createDialog(type: .privateChat, name: nil, photo: nil, ownerId: me, occupants: [peer]) }
    }

    /// `PUT /chat/Message.json` (no id, as the JavaScript SDK's `message.update(null, …)` sends it)
    /// with `chat_dialog_id` and `read=1` and/or `delivered=1`: every message of the dialog. 200, empty.
    func updateAllMessages(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        let dialog = try namedDialog(r, userId: me)
        let read = ["1", "true"].contains(r.parameter("read") ?? "")
        let delivered = ["1", "true"].contains(r.parameter("delivered") ?? "")
        guard read || delivered else { throw .field(422, "read", "give read=1 or delivered=1 to mark every message of the dialog") }
        if read { try storage { try chat.markRead(dialogId: dialog.id, ids: nil, userId: me) } }
        if delivered { try storage { try chat.markDelivered(dialogId: dialog.id, ids: nil, userId: me) } }
        return .empty(200)
    }

    /// `read=1` (or `delivered=1`) for messages of dialogs the caller may use;
    /// with `message`, an edit instead (`editMessage`).
    func updateMessages(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        if r.parameter("message") != nil { return try editMessage(context) }
        let me = context.session.userId
        let read = ["1", "true"].contains(r.parameter("read") ?? "")
        let delivered = ["1", "true"].contains(r.parameter("delivered") ?? "")
        var found = false
        for id in pathIds(context) {
            guard let message = try storage({ try chat.message(id: id) }) else { continue }
            if let dialogId = r.parameter("chat_dialog_id"), !dialogId.isEmpty, dialogId != message.dialogId { continue }
            _ = try usableDialog(message.dialogId, userId: me)
            found = true
            if read { try storage { try chat.markRead(dialogId: message.dialogId, ids: [id], userId: me) } }
            if delivered { try storage { try chat.markDelivered(dialogId: message.dialogId, ids: [id], userId: me) } }
        }
        guard found else { throw .notFound }
        return .empty(200)
    }

    /// `PUT /chat/Message/{id}.json` with `message`: the sender replaces the text of one
    /// message (403 for anyone else, 404 unknown or hidden, 422 blank or too long); 200, empty.
    private func editMessage(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        let ids = pathIds(context)
        guard ids.count == 1 else { throw .field(422, "message", "can be edited one message at a time") }
        let body = r.parameter("message") ?? ""
        if body.isEmpty { throw .field(422, "message", "can't be blank") }
        if body.utf8.count > ChatStore.maxMessageBytes {
            throw .field(422, "message", "is too long (maximum is \(ChatStore.maxMessageBytes) bytes)")
        }
        guard let message = try storage({ try chat.message(id: ids[0]) }),
              !(try storage { try chat.isHidden(messageId: message.id, from: me) }) else { throw .notFound }
        if let dialogId = r.parameter("chat_dialog_id"), !dialogId.isEmpty, dialogId != message.dialogId { throw .notFound }
        _ = try usableDialog(message.dialogId, userId: me)
        guard message.senderId == me else { throw .forbidden }
        try storage { try chat.editMessage(message, body: body) }
        return .empty(200)
    }

    /// Without `force=1` the messages are hidden from the caller only; with it their
    /// sender deletes them for everyone (others' ids go to `WrongPermissions`). Always
    /// answers the three id lists; unknown, hidden and foreign messages are `NotFound`.
    func deleteMessages(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let me = context.session.userId
        let force = context.request.parameter("force") == "1"
        var deleted: [String] = [], notFound: [String] = [], refused: [String] = []
        for id in pathIds(context) {
            guard let message = try storage({ try chat.message(id: id) }),
                  let dialog = try storage({ try chat.dialog(id: message.dialogId, viewer: nil) }),
                  dialog.admits(me),
                  !(try storage { try chat.isHidden(messageId: id, from: me) }) else { notFound.append(id); continue }
            if force {
                guard message.senderId == me else { refused.append(id); continue }
                try storage { try chat.deleteMessage(message) }
            } else {
                try storage { try chat.hideMessage(message, from: me) }
            }
            deleted.append(id)
        }
        // All three lists always, as the reference's DeleteMessagesResponse has them.
        return .json(200, .object([
            ("SuccessfullyDeleted", .object([("ids", .array(deleted.map { .string($0) }))])),
            ("NotFound", .object([("ids", .array(notFound.map { .string($0) }))])),
            ("WrongPermissions", .object([("ids", .array(refused.map { .string($0) }))])),
        ]))
    }

    func unreadCounts(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let me = context.session.userId
        var filter: [String]?
        let raw = r.parameters("chat_dialog_ids") + r.parameters("chat_dialog_ids[]")
        if !raw.isEmpty {
            filter = raw.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(" ") } }.filter { !$0.isEmpty }
        }
        let counts = try storage { try chat.unreadCounts(userId: me, dialogIds: filter) }
        return .json(200, .object([("total", .int(counts.reduce(0) { $0 + $1.1 }))] + counts.map { ($0.0, .int($0.1)) }))
    }
}
