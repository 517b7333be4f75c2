// The Custom Objects API (docs/protocol.md §13): records of classes made by the values written
// to them, listed with the search operators, changed with the update operators, in bulk and by
// criteria, each under its own read/update/delete permissions.
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// The list's own parameters, never a field's condition.
    static let listParameters: Set<String> = ["skip", "limit", "count", "sort_asc", "sort_desc", "output", "group_by", "token"]

    /// The routes of this API, more particular paths first (`multi.json` before `{ids}.json`).
    func customObjectRoutes() -> [RESTRoute] {
        [
            .session(.get, "/data/{class}.json") { [unowned self] (c) throws(RESTError) in try self.listRecords(c) },
            .user(.post, "/data/{class}.json") { [unowned self] (c) throws(RESTError) in try self.createRecord(c) },
            .user(.post, "/data/{class}/multi.json") { [unowned self] (c) throws(RESTError) in try self.createRecords(c) },
            .user(.put, "/data/{class}/multi.json") { [unowned self] (c) throws(RESTError) in try self.updateRecords(c) },
            .user(.put, "/data/{class}/by_criteria.json") { [unowned self] (c) throws(RESTError) in try self.updateRecordsWhere(c) },
            .user(.delete, "/data/{class}/by_criteria.json") { [unowned self] (c) throws(RESTError) in try self.deleteRecordsWhere(c) },
            .user(.post, "/data/{class}/{id}/file.json") { [unowned self] (c) throws(RESTError) in try self.uploadRecordFile(c) },
            // `?token=` as QB.data.fileUrl builds it: a link for an <img>, which sends no header.
            .optionalSession(.get, "/data/{class}/{id}/file.json") { [unowned self] (c) throws(RESTError) in try self.downloadRecordFile(c) },
            .user(.delete, "/data/{class}/{id}/file.json") { [unowned self] (c) throws(RESTError) in try self.deleteRecordFile(c) },
            .session(.get, "/data/{class}/{ids}.json") { [unowned self] (c) throws(RESTError) in try self.recordsById(c) },
            .user(.put, "/data/{class}/{ids}.json") { [unowned self] (c) throws(RESTError) in try self.updateRecord(c) },
            .user(.delete, "/data/{class}/{ids}.json") { [unowned self] (c) throws(RESTError) in try self.deleteRecords(c) },
        ]
    }

    /// A storage call about records: a value it got wrong is 422 on its field, an unknown record
    /// 404, an action not allowed 403, a record too large 413 (nothing of it stored: the store's
    /// transaction rolled back); the rest as `storage`.
    func recordStorage<T>(_ body: () throws -> T) throws(RESTError) -> T {
        var refusal: RESTError?
        let result: T? = try storage {
            do {
                return try body()
            } catch let problem as FieldProblem {
                refusal = .field(422, problem.field, problem.message)
            } catch let refused as RecordRefusal {
                switch refused {
                case .notFound: refusal = .notFound
                case .forbidden: refusal = .forbidden
                case .tooLarge(let why): refusal = .list(413, "Request entity too large: \(why)")
                }
            }
            return nil
        }
        guard let result else { throw refusal ?? .internalError }
        return result
    }

    /// The caller as permissions see them: their id and tags.
    func recordCaller(_ session: some LiveSession) throws(RESTError) -> RecordCaller {
        let id = session.userId
        let tags = id == 0 ? [] : try storage { try database.user(id: id) }?.profile.tags ?? []
        return RecordCaller(userId: id, tags: tags)
    }

    /// The class the path names; 422 for a name no class may have.
    private func className<Session>(_ context: RESTContext<Session>) throws(RESTError) -> String {
        let name = context.request.pathParameters["class"] ?? ""
        guard CustomClass.isValidName(name) else {
            throw .field(422, "class_name", "is not a name a class may have (a letter, then letters, digits and _): \(name)")
        }
        return name
    }

    /// The record ids of a path's `a,b,c`, each a record id (422 otherwise).
    private func recordIds<Session>(_ context: RESTContext<Session>) throws(RESTError) -> [String] {
        let ids = (context.request.pathParameters["ids"] ?? context.request.pathParameters["id"] ?? "")
            .split(separator: ",").map { String($0).trimmingCharacters(" ").lowercased() }.filter { !$0.isEmpty }
        guard !ids.isEmpty else { throw .notFound }
        if let bad = ids.first(where: { !ObjectIdGenerator.isValid($0) }) { throw .field(422, "_id", "is not a record id: \(bad)") }
        return ids
    }

    /// `(field, operator, value)` conditions of a tree: `field=value`, `field[op]=value`
    /// (`{"field":{"op":value}}`); an array of values is `in` them.
    static func conditions(_ members: [(String, JSONNode)]) throws(RESTError) -> [(field: String, op: String?, value: String)] {
        var out: [(field: String, op: String?, value: String)] = []
        for (field, node) in members {
            switch node {
            case .object(let rules):
                for (op, value) in rules {
                    guard let text = value.text else { throw .field(422, field, "\(op) takes a value, not \(value.serialized)") }
                    out.append((field, op, text))
                }
            case .array:
                out.append((field, "in", node.text ?? ""))
            default:
                guard let text = node.text else { throw .field(422, field, "is not a value to search for") }
                out.append((field, nil, text))
            }
        }
        return out
    }

    /// The criteria of `conditions` over the class `className` (as far as it is known).
    private func searchCriteria(_ conditions: [(field: String, op: String?, value: String)], in className: String) throws(RESTError) -> RecordCriteria {
        let cls = try storage { try objects.customClass(className) }
        return try recordStorage { try RecordCriteria.parse(conditions, in: cls) }
    }

    // MARK: listing

    /// `GET /data/{class}.json`: the records the caller may read, filtered, sorted and paged;
    /// with `count=1` their number; with `group_by` and `field[calc]=op` aggregates.
    func listRecords(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let name = try className(context)
        let caller = try recordCaller(context.session)
        var conditions: [(field: String, op: String?, value: String)] = []
        var calculations: [RecordCalculation] = []
        for (field, node) in FormTree.build(r.parameters).members where !Self.listParameters.contains(field) {
            var rules = node.members
            if let calc = rules.firstIndex(where: { $0.0 == "calc" }) {
                let op = rules[calc].1.text ?? ""
                guard let operation = RecordCalculation.Operation(rawValue: op) else {
                    throw .field(422, field, "calc takes avg, min, max or sum, not \(op)")
                }
                calculations.append(RecordCalculation(field: field, operation: operation))
                rules.remove(at: calc)
                if rules.isEmpty { continue }
                conditions += try Self.conditions([(field, .object(rules))])
            } else {
                conditions += try Self.conditions([(field, node)])
            }
        }
        let criteria = try searchCriteria(conditions, in: name)
        if wantsCount(r) {
            let total = try recordStorage { try objects.count(name, where: criteria, caller: caller) }
            return .json(200, .object([("class_name", .string(name)), ("items_count", .int(total))]))
        }
        var limit = SandboxAPI.defaultPageSize, skip = 0
        if let text = r.parameter("limit") {
            guard let v = Int(text), v >= -1 else { throw .field(422, "limit", "is not an integer of -1 or more") }
            limit = v == 0 ? SandboxAPI.defaultPageSize : min(v, SandboxAPI.maxPageSize)
        }
        if let text = r.parameter("skip") {
            guard let v = Int(text), v >= 0 else { throw .field(422, "skip", "is not a non-negative integer") }
            skip = v
        }
        let groupBy = r.parameter("group_by").flatMap { $0.isEmpty ? nil : $0 }
        if groupBy != nil || !calculations.isEmpty {
            let items = try recordStorage {
                try objects.aggregate(name, where: criteria, groupBy: groupBy, calculations: calculations,
                                      limit: limit < 0 ? SandboxAPI.defaultPageSize : limit, skip: skip, caller: caller)
            }
            return .json(200, .object([("class_name", .string(name)), ("skip", .int(skip)), ("limit", .int(limit)), ("items", .array(items))]))
        }
        // `limit=-1`: the last record only (the latest made), as the documentation has it.
        var order = RecordOrder.created
        if limit < 0 {
            order = RecordOrder(field: "_id", descending: true)
        } else if let field = r.parameter("sort_desc") ?? r.parameter("sort_asc") {
            order = RecordOrder(field: field, descending: r.parameter("sort_desc") != nil)
        }
        let page = try recordStorage {
            try objects.records(name, where: criteria, order: order, limit: limit < 0 ? 1 : limit, skip: limit < 0 ? 0 : skip, caller: caller)
        }
        let include = Self.fieldList(r.parameter("output[include]")), exclude = Self.fieldList(r.parameter("output[exclude]"))
        return .json(200, .object([
            ("class_name", .string(name)), ("skip", .int(skip)), ("limit", .int(limit)),
            ("items", .array(page.items.map { Self.output($0.json(in: page.cls), include: include, exclude: exclude) })),
        ]))
    }

    private static func fieldList(_ text: String?) -> Set<String> {
        Set((text ?? "").split(separator: ",").map { String($0).trimmingCharacters(" ") }.filter { !$0.isEmpty })
    }

    /// `output[include]` keeps the fields named and `_id`; `output[exclude]` drops the ones named (`_id` too).
    private static func output(_ record: JSONNode, include: Set<String>, exclude: Set<String>) -> JSONNode {
        guard !(include.isEmpty && exclude.isEmpty) else { return record }
        return .object(record.members.filter { key, _ in
            (include.isEmpty || include.contains(key) || key == "_id") && !exclude.contains(key)
        })
    }

    /// `GET /data/{class}/{ids}.json`: the records named that the caller may read, as a list
    /// answers; 404 when none of them exists, 403 when the caller may read none that does.
    func recordsById(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let name = try className(context)
        let ids = try recordIds(context)
        let caller = try recordCaller(context.session)
        let found = try recordStorage { try objects.records(name, ids: ids, caller: caller) }
        if found.items.isEmpty { throw found.anyExists ? .forbidden : .notFound }
        return .json(200, .object([
            ("class_name", .string(name)), ("skip", .int(0)), ("limit", .int(ids.count)),
            ("items", .array(found.items.map { $0.json(in: found.cls) })),
        ]))
    }

    // MARK: creating and changing

    /// `POST /data/{class}.json`: a new record of the caller's, its class made or grown by its
    /// fields; 201 with the record.
    func createRecord(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let name = try className(context)
        let (tree, fromForm) = FormTree.of(context.request)
        let caller = try recordCaller(context.session)
        let made = try recordStorage { try objects.create(name, [try RecordInput(tree.members, fromForm: fromForm)], caller: caller) }
        return .json(201, made.1[0].json(in: made.0))
    }

    /// The `record[1][field]=…` entries of a bulk request, in the order of their numbers (a
    /// JSON `record` may be an array too); 422 when there are none.
    private static func bulkEntries(_ tree: JSONNode) throws(RESTError) -> [(label: String, members: [(String, JSONNode)])] {
        let entries: [(String, JSONNode)]
        switch tree["record"] {
        case .array(let items)?: entries = items.enumerated().map { (String($0.offset + 1), $0.element) }
        case .object(let numbered)?:
            entries = numbered.enumerated().sorted { a, b in
                (Int(a.element.0) ?? .max, a.offset) < (Int(b.element.0) ?? .max, b.offset)
            }.map(\.element)
        default: throw .field(422, "record", "can't be blank: give record[1][field]=value, …")
        }
        var out: [(label: String, members: [(String, JSONNode)])] = []
        for (label, node) in entries {
            guard case .object(let members) = node else { throw .field(422, "record[\(label)]", "is not a record's fields") }
            out.append((label, members))
        }
        guard !out.isEmpty else { throw .field(422, "record", "can't be blank") }
        return out
    }

    /// `POST /data/{class}/multi.json`: several new records, all or none; 200 with them.
    func createRecords(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let name = try className(context)
        let (tree, fromForm) = FormTree.of(context.request)
        let entries = try Self.bulkEntries(tree)
        let caller = try recordCaller(context.session)
        let made = try recordStorage {
            try objects.create(name, try entries.map { (entry) throws(FieldProblem) in try RecordInput(entry.members, fromForm: fromForm) },
                               caller: caller)
        }
        return .json(200, .object([("class_name", .string(name)), ("items", .array(made.1.map { $0.json(in: made.0) }))]))
    }

    /// `PUT /data/{class}/multi.json`: `record[N][_id]` (or `[id]`) and the changes of each, all
    /// or none; unknown ids are listed in `not_found`; 200.
    func updateRecords(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let name = try className(context)
        let (tree, fromForm) = FormTree.of(context.request)
        var updates: [(id: String, input: RecordInput)] = []
        for entry in try Self.bulkEntries(tree) {
            guard let id = (entry.members.first { $0.0 == "_id" || $0.0 == "id" }?.1.text)?.lowercased(), ObjectIdGenerator.isValid(id) else {
                throw .field(422, "record[\(entry.label)][_id]", "is not a record id")
            }
            let input = try recordStorage { try RecordInput(entry.members.filter { $0.0 != "id" }, fromForm: fromForm) }
            updates.append((id, input))
        }
        let caller = try recordCaller(context.session)
        let result = try recordStorage { try objects.update(name, updates, caller: caller) }
        return .json(200, .object([
            ("class_name", .string(name)),
            ("not_found", .object([("ids", .array(result.notFound.map { .string($0) }))])),
            ("items", .array(result.updated.map { $0.json(in: result.cls) })),
        ]))
    }

    /// `PUT /data/{class}/{id}.json`: one record changed; 200 with it.
    func updateRecord(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let name = try className(context)
        let ids = try recordIds(context)
        guard ids.count == 1 else { throw .field(422, "_id", "one record at a time: PUT /data/{class}/multi.json changes several") }
        let (tree, fromForm) = FormTree.of(context.request)
        let caller = try recordCaller(context.session)
        let result = try recordStorage { try objects.update(name, [(ids[0], try RecordInput(tree.members, fromForm: fromForm))], caller: caller) }
        guard let record = result.updated.first else { throw .notFound }
        return .json(200, record.json(in: result.cls))
    }

    /// `PUT /data/{class}/by_criteria.json`: `search_criteria[field][op]=value` finds the records,
    /// the other parameters change every one the caller may update; 200 with them.
    func updateRecordsWhere(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let name = try className(context)
        let (tree, fromForm) = FormTree.of(context.request)
        let conditions = try Self.conditions(tree["search_criteria"]?.members ?? [])
        guard !conditions.isEmpty else { throw .field(422, "search_criteria", "can't be blank: give search_criteria[field][op]=value") }
        let criteria = try searchCriteria(conditions, in: name)
        let caller = try recordCaller(context.session)
        let result = try recordStorage {
            try objects.update(name, where: criteria, try RecordInput(tree.members.filter { $0.0 != "search_criteria" }, fromForm: fromForm),
                               caller: caller)
        }
        return .json(200, .object([
            ("class_name", .string(name)), ("skip", .int(0)), ("limit", .int(result.updated.count)),
            ("total_found", .int(result.updated.count)), ("items", .array(result.updated.map { $0.json(in: result.cls) })),
        ]))
    }

    // MARK: deleting

    /// `DELETE /data/{class}/{ids}.json`: the records named (and their children) that the caller
    /// may delete. One id: 200 empty, 404, 403; several: the three id lists.
    func deleteRecords(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let name = try className(context)
        let ids = try recordIds(context)
        let caller = try recordCaller(context.session)
        let result = try recordStorage { try objects.delete(name, ids: ids, caller: caller) }
        removeFiles(result.files)
        if ids.count == 1 {
            if !result.notFound.isEmpty { throw .notFound }
            if !result.refused.isEmpty { throw .forbidden }
            return .empty(200)
        }
        return .json(200, .object([
            ("SuccessfullyDeleted", .object([("ids", .array(result.deleted.map { .string($0) }))])),
            ("WrongPermissions", .object([("ids", .array(result.refused.map { .string($0) }))])),
            ("NotFound", .object([("ids", .array(result.notFound.map { .string($0) }))])),
        ]))
    }

    /// `DELETE /data/{class}/by_criteria.json?field[op]=value`: every record matching that the
    /// caller may delete (and their children); 200 `{"total_deleted":N}`. No criterion is 422:
    /// a slip would empty the class.
    func deleteRecordsWhere(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let name = try className(context)
        let conditions = try Self.conditions(FormTree.of(context.request).tree.members.filter { !Self.listParameters.contains($0.0) })
        guard !conditions.isEmpty else { throw .field(422, "criteria", "can't be blank: give field[op]=value") }
        let criteria = try searchCriteria(conditions, in: name)
        let caller = try recordCaller(context.session)
        let result = try recordStorage { try objects.delete(name, where: criteria, caller: caller) }
        removeFiles(result.files)
        return .json(200, .object([("total_deleted", .int(result.count))]))
    }

    /// Removes the files of blobs the database no longer has (nothing without a storage endpoint).
    func removeFiles(_ uids: [String]) {
        guard let blobStorage else { return }
        for uid in uids { blobStorage.remove(uid) }
    }
}
