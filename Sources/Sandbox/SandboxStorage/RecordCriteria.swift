// A search over custom object records (docs/protocol.md §13): `field=value` and
// `field[op]=value` with the chat filters' operators (RecordFilter) plus `near`, turned into
// SQL over the record's JSON fields. Field names are checked (CustomField.isValidName)
// before they are written into a JSON path; values are always bound.
internal import SQLiteStore
import SandboxClock
import SandboxJSON

/// Every condition of one search, all of which must hold (`or` ones: any of them).
package struct RecordCriteria {
    private var filters: [RecordFilter] = []
    /// The `or` filters: a record matches when one of them holds.
    private var alternatives: [RecordFilter] = []
    private var near: [(sql: String, arguments: [SQLiteValue])] = []

    /// The SQL of the records table's row, as a search reads it.
    package struct Columns {
        /// The JSON object of the record's fields.
        var fields: String
        /// The record's own columns a search may name (`_id`, `user_id`, …).
        var predefined: [String: FilterableField]

        /// A row of `custom_objects` called `r`.
        package static let record = Columns(fields: "r.fields", predefined: [
            "_id": FilterableField(column: "r.id", kind: .text),
            "_parent_id": FilterableField(column: "r.parent_id", kind: .text),
            "user_id": FilterableField(column: "r.user_id", kind: .integer),
            "created_at": FilterableField(column: "r.created_at", kind: .date),
            "updated_at": FilterableField(column: "r.updated_at", kind: .date),
        ])

        /// The custom data record of a row of `dialogs` called `d` (its fields only).
        package static let dialogData = Columns(fields: "(SELECT dc.fields FROM custom_objects dc WHERE dc.id = d.data_id)", predefined: [:])
    }

    package init() {}

    /// The criteria `conditions` give: `(field, operator, value)`, the operator nil for equality.
    /// A field the class lacks is null in every record (`ne` and `nin` hold, the rest do not).
    package static func parse(_ conditions: [(field: String, op: String?, value: String)], in cls: CustomClass?,
                              columns: Columns = .record) throws(FieldProblem) -> RecordCriteria {
        var criteria = RecordCriteria()
        for (name, op, value) in conditions {
            if op == "near" {
                criteria.near.append(try nearCondition(name, value, in: cls, columns: columns))
                continue
            }
            let field = try filterable(name, in: cls, columns: columns)
            let normalized = try field.normalized(value, op: op)
            let filter: RecordFilter
            do {
                filter = try RecordFilter.make(name, field.filterable, op: op ?? "eq", value: normalized)
            } catch {
                throw FieldProblem(error.field, error.message)
            }
            if op == "or" { criteria.alternatives.append(filter) } else { criteria.filters.append(filter) }
        }
        return criteria
    }

    /// `(where, arguments)`: `1` when there is no condition.
    var sql: (String, [SQLiteValue]) {
        var parts: [String] = []
        var arguments: [SQLiteValue] = []
        for filter in filters {
            let (sql, args) = filter.sql
            parts.append(sql)
            arguments += args
        }
        if !alternatives.isEmpty {
            let each = alternatives.map(\.sql)
            parts.append("(" + each.map(\.0).joined(separator: " OR ") + ")")
            arguments += each.flatMap(\.1)
        }
        for condition in near {
            parts.append(condition.sql)
            arguments += condition.arguments
        }
        return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), arguments)
    }

    /// How a search reads one field: the filter's column and how values are made comparable.
    private struct SearchField {
        var name: String
        var filterable: FilterableField
        var type: CustomFieldType?

        /// A Boolean's `true`/`false` as SQLite's JSON reads them (1/0); a Date's value as the
        /// stored ISO text (unix seconds given are converted).
        func normalized(_ value: String, op: String?) throws(FieldProblem) -> String {
            guard let type, type == .boolean || type == .date else { return value }
            let isList = RecordFilter.listOperators.contains(op ?? "eq")
            let items = isList ? value.split(separator: ",").map { String($0).trimmingCharacters(" ") } : [value.trimmingCharacters(" ")]
            let field = CustomField(name: "", type: type)
            var out: [String] = []
            for item in items where !item.isEmpty {
                let cast: JSONNode
                do { cast = try field.castItem(.string(item)) } catch {
                    throw FieldProblem(name, "is not \(type == .boolean ? "true or false" : "a date"): \(item)")
                }
                switch cast {
                case .bool(let b): out.append(b ? "1" : "0")
                case .string(let text): out.append(text)
                default: break
                }
            }
            return out.joined(separator: ",")
        }
    }

    private static func filterable(_ name: String, in cls: CustomClass?, columns: Columns) throws(FieldProblem) -> SearchField {
        if let known = columns.predefined[name] { return SearchField(name: name, filterable: known, type: nil) }
        guard CustomField.isValidName(name) else { throw FieldProblem(name, "is not a field a record can have") }
        let path = "'$.\(name)'"
        guard let field = cls?.field(name) else {
            return SearchField(name: name, filterable: FilterableField(column: "json_extract(\(columns.fields), \(path))", kind: .text), type: nil)
        }
        if field.type == .file { throw FieldProblem(name, "is a file field, which a search cannot read") }
        let kind: FilterableField.Kind
        switch field.type {
        case .integer, .boolean: kind = .integer
        case .float: kind = .real
        case .string, .date, .file: kind = .text
        }
        let filterable = field.isArray
            ? FilterableField(items: "json_each(\(columns.fields), \(path)) fe WHERE 1", value: "fe.value", kind: kind)
            : FilterableField(column: "json_extract(\(columns.fields), \(path))", kind: kind)
        return SearchField(name: name, filterable: filterable, type: field.type)
    }

    /// `field[near]=longitude,latitude;radius`: records whose field (an array of two numbers,
    /// longitude first) lies within radius metres, by the haversine distance on a sphere of
    /// the Earth's mean radius.
    private static func nearCondition(_ name: String, _ value: String, in cls: CustomClass?,
                                      columns: Columns) throws(FieldProblem) -> (sql: String, arguments: [SQLiteValue]) {
        guard CustomField.isValidName(name) else { throw FieldProblem(name, "is not a field a record can have") }
        if let field = cls?.field(name), !(field.isArray && (field.type == .float || field.type == .integer)) {
            throw FieldProblem(name, "near needs a field of two numbers (longitude, latitude), not \(field.typeName)")
        }
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        let point = parts.first?.split(separator: ",").map { Double(String($0).trimmingCharacters(" ")) } ?? []
        guard parts.count == 2, point.count == 2, let longitude = point[0], let latitude = point[1],
              let radius = Double(String(parts[1]).trimmingCharacters(" ")), radius >= 0, radius.isFinite,
              abs(longitude) <= 180, abs(latitude) <= 90 else {
            throw FieldProblem(name, "near takes longitude,latitude;radius in metres: \(value)")
        }
        let lon = "json_extract(\(columns.fields), '$.\(name)[0]')", lat = "json_extract(\(columns.fields), '$.\(name)[1]')"
        let sql = """
            (typeof(\(lon)) IN ('integer','real') AND typeof(\(lat)) IN ('integer','real') AND \
            12742000 * asin(min(1, sqrt(pow(sin(radians(\(lat) - ?) / 2), 2) + \
            cos(radians(?)) * cos(radians(\(lat))) * pow(sin(radians(\(lon) - ?) / 2), 2)))) <= ?)
            """
        return (sql, [.real(latitude), .real(latitude), .real(longitude), .real(radius)])
    }
}
