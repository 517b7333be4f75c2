// `field[op]=value` query filters (docs/protocol.md §5: lt lte gt gte ne eq in nin or all ctn),
// turned into SQL over a whitelist of columns so no request text ever reaches the SQL itself.
internal import SQLiteStore
import SandboxClock

/// One filterable field: the SQL column and how its values are typed.
package struct FilterableField {
    package enum Kind {
        case integer, real, text
        /// Stored as seconds since the epoch (REAL); given as a number or as ISO 8601.
        case date
    }
    /// The column, or for a list field the expression that names one of its items.
    var column: String
    var kind: Kind
    /// For a field that holds a list (a dialog's occupants, a message's attachment types):
    /// `table alias WHERE …`, its items' rows, correlated with the record being filtered.
    var items: String?

    package init(column: String, kind: Kind) {
        self.column = column
        self.kind = kind
    }

    /// This text field compared as a number (`filter[]=number facebook_id lt 50000`).
    package var asNumber: FilterableField {
        guard kind == .text, items == nil else { return self }
        return FilterableField(column: "CAST(\(column) AS REAL)", kind: .real)
    }

    /// A list field: `items` is `FROM`'s text with a `WHERE`, `value` names an item in it.
    package init(items: String, value: String, kind: Kind) {
        column = value
        self.kind = kind
        self.items = items
    }
}

/// A filter the request got wrong: the field and what is wrong with it (a 422 over REST).
package struct RecordFilterError: Error, Equatable {
    package var field: String
    package var message: String

    package init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// A parsed filter: `column op value(s)`.
package struct RecordFilter {
    var field: FilterableField
    var op: String
    var values: [String]

    package init(field: FilterableField, op: String, values: [String]) {
        self.field = field
        self.op = op
        self.values = values
    }

    static let comparisons: [String: String] = ["lt": "<", "lte": "<=", "gt": ">", "gte": ">=", "eq": "="]
    /// Operators whose value is a comma-separated list.
    static let listOperators: Set<String> = ["in", "nin", "or", "all"]
    package static let operators: Set<String> = Set(comparisons.keys).union(listOperators).union(["ne", "ctn"])

    /// Filters for the `fields` named in `parameters` (`name=v` is equality). Unknown names are
    /// ignored (they may be other parameters); a bad operator or value is a 422 on that field.
    package static func parse(_ parameters: [(String, String)], fields: [String: FilterableField]) throws(RecordFilterError) -> [RecordFilter] {
        var filters: [RecordFilter] = []
        for (name, value) in parameters {
            var fieldName = name
            var op = "eq"
            if let open = name.firstIndex(of: "["), name.hasSuffix("]") {
                fieldName = String(name[..<open])
                op = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
            }
            guard let field = fields[fieldName] else { continue }
            filters.append(try make(fieldName, field, op: op, value: value))
        }
        return filters
    }

    /// One filter on `field` (called `name` in errors): `value` split when `op` takes a list,
    /// each value checked against the field's kind (a date may be ISO 8601 or a number).
    package static func make(_ name: String, _ field: FilterableField, op: String, value: String) throws(RecordFilterError) -> RecordFilter {
        guard operators.contains(op) else { throw RecordFilterError(field: name, message: "unsupported operator '\(op)'") }
        if op == "all" && field.items == nil {
            throw RecordFilterError(field: name, message: "operator 'all' applies to list fields only")
        }
        if op == "ctn" && field.kind != .text {
            throw RecordFilterError(field: name, message: "operator 'ctn' applies to text fields only")
        }
        var values = listOperators.contains(op)
            ? value.split(separator: ",").map { String($0).trimmingCharacters(" ") }.filter { !$0.isEmpty }
            : [op == "ctn" ? value : value.trimmingCharacters(" ")]
        for (i, v) in values.enumerated() {
            switch field.kind {
            case .integer, .real:
                guard Double(v) != nil else { throw RecordFilterError(field: name, message: "is not a number: \(v)") }
            case .date:
                if Double(v) != nil { continue }
                guard let seconds = SandboxTime.parseISO8601(v) else {
                    throw RecordFilterError(field: name, message: "is not a date (unix seconds or 2019-05-23T18:07:19Z): \(v)")
                }
                values[i] = String(seconds)
            case .text: break
            }
        }
        return RecordFilter(field: field, op: op, values: values)
    }

    private var arguments: [SQLiteValue] {
        values.map { v in
            switch field.kind {
            // A number beyond Int (1e300, inf, nan) compares as a real: Int(Double) would trap.
            case .integer: return Int(v).map(SQLiteValue.int) ?? .real(Double(v) ?? 0)
            case .real, .date: return .real(Double(v) ?? 0)
            case .text: return .text(v)
            }
        }
    }

    /// `(sql, arguments)` for a WHERE clause. As in MongoDB, behind the hosted service, `ne`
    /// and `nin` also match a record without the value (NULL, or an empty list).
    var sql: (String, [SQLiteValue]) {
        let column = field.column
        let marks = values.map { _ in "?" }.joined(separator: ",")
        let args = arguments
        guard let items = field.items else {
            switch op {
            case "in", "or": return values.isEmpty ? ("0", []) : ("\(column) IN (\(marks))", args)
            case "nin": return values.isEmpty ? ("1", []) : ("(\(column) IS NULL OR \(column) NOT IN (\(marks)))", args)
            case "ne": return ("\(column) IS NOT ?", args)
            case "ctn": return ("instr(\(column), ?) > 0", args)
            default: return ("\(column) \(RecordFilter.comparisons[op] ?? "=") ?", args)
            }
        }
        func some(_ condition: String) -> String { "EXISTS (SELECT 1 FROM \(items) AND \(condition))" }
        switch op {
        case "in", "or": return values.isEmpty ? ("0", []) : (some("\(column) IN (\(marks))"), args)
        case "nin": return values.isEmpty ? ("1", []) : ("NOT " + some("\(column) IN (\(marks))"), args)
        case "ne": return ("NOT " + some("\(column) = ?"), args)
        case "all":
            if values.isEmpty { return ("1", []) }
            return ("(" + values.map { _ in some("\(column) = ?") }.joined(separator: " AND ") + ")", args)
        case "ctn": return (some("instr(\(column), ?) > 0"), args)
        default: return (some("\(column) \(RecordFilter.comparisons[op] ?? "=") ?"), args)
        }
    }
}

extension String {
    /// Without `character` at either end (parameters and extraParams values, which clients pad with spaces).
    package func trimmingCharacters(_ character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s = s.dropFirst() }
        while s.last == character { s = s.dropLast() }
        return String(s)
    }
}
