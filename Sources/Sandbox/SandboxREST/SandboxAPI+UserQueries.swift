// The users list as the reference describes it (docs/protocol.md §3): `filter[]` on any field
// of the user object with the service's operators, `order`, paging; and the look-ups by the ids
// a user has on other services.
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// The users list's operators: the service's names (`ge`, `le`) beside the chat API's.
    private static let userOperators: [String: String] = [
        "eq": "eq", "ne": "ne", "lt": "lt", "gt": "gt", "le": "lte", "lte": "lte", "ge": "gte", "gte": "gte",
        "in": "in", "nin": "nin", "ctn": "ctn",
    ]

    /// `GET /users.json`: `page`, `per_page` (≤ 100), any number of
    /// `filter[]={number|string|date} {field} {operator} {value}` (all must hold; `between`
    /// takes `a,b`, `in` and `nin` a list) and `order={asc|desc} {type} {field}` (default: by id).
    func listUsers(_ context: SessionContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let (page, perPage) = userPaging(r)
        var filters: [RecordFilter] = []
        for text in r.parameters("filter[]") + r.parameters("filter") {
            filters += try Self.userFilters(text)
        }
        var sort = RecordSort(column: "id", descending: false)
        if let text = r.parameter("order"), !text.trimmingCharacters(" ").isEmpty {
            let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard parts.count == 3, ["asc", "desc"].contains(parts[0]), ["number", "string", "date"].contains(parts[1]),
                  SandboxDatabase.userFields[parts[2]] != nil else {
                throw .field(422, "order", "must be '{asc|desc} {number|string|date} {field}' with a field of the user: \(text)")
            }
            sort = RecordSort(column: parts[2], descending: parts[0] == "desc")
        }
        let (total, items) = try storage { try database.users(filters: filters, sort: sort, page: page, perPage: perPage) }
        return userPage(page: page, perPage: perPage, total: total, items: items)
    }

    /// One `filter[]` value as filters (two for `between`); a 422 on `filter` saying what is wrong.
    /// A filter with nothing after its operator (`string full_name in `) filters nothing:
    /// QuickBlox's web chat sample lists every user that way before anything is searched for.
    static func userFilters(_ text: String) throws(RESTError) -> [RecordFilter] {
        let parts = text.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map(String.init)
        if parts.count == 3, ["number", "string", "date"].contains(parts[0]), SandboxDatabase.userFields[parts[1]] != nil,
           userOperators[parts[2]] != nil || parts[2] == "between" {
            return []
        }
        guard parts.count == 4, ["number", "string", "date"].contains(parts[0]) else {
            throw .field(422, "filter", "must be '{number|string|date} {field} {operator} {value}': \(text)")
        }
        let (type, name, op, value) = (parts[0], parts[1], parts[2], parts[3])
        guard var field = SandboxDatabase.userFields[name] else { throw .field(422, "filter", "has no field '\(name)' to filter by") }
        if type == "number" { field = field.asNumber }
        do throws(RecordFilterError) {
            if op == "between" {
                let bounds = value.split(separator: ",").map { String($0).trimmingCharacters(" ") }
                guard bounds.count == 2 else { throw RecordFilterError(field: name, message: "between takes two values, a,b: \(value)") }
                return [try RecordFilter.make(name, field, op: "gte", value: bounds[0]),
                        try RecordFilter.make(name, field, op: "lte", value: bounds[1])]
            }
            guard let mapped = userOperators[op] else { throw RecordFilterError(field: name, message: "unsupported operator '\(op)'") }
            return [try RecordFilter.make(name, field, op: mapped, value: value)]
        } catch {
            throw .field(422, "filter", "\(error.field) \(error.message)")
        }
    }

    /// `GET /users/by_facebook_id.json?facebook_id=…` and the like: the user with that id, or 404.
    func userBySocialId(_ kind: SocialIdKind) -> (SessionContext) throws(RESTError) -> RESTResponse {
        { [unowned self] (context) throws(RESTError) in
            guard let value = context.request.parameter(kind.rawValue)?.trimmingCharacters(" "), !value.isEmpty else {
                throw .field(422, kind.rawValue, "can't be blank")
            }
            guard let user = try storage({ try database.user(kind, value) }) else { throw .notFound }
            return .json(200, .object([("user", user.json)]))
        }
    }
}
