// `field[op]=value` query filters (docs/protocol.md §5: lt lte gt gte ne in nin), turned into SQL
// over a whitelist of columns so no request text ever reaches the SQL itself.
internal import SQLiteStore

/// One filterable field: the SQL column and how its values are typed.
package struct FilterableField {
    package enum Kind { case integer, real, text }
    var column: String
    var kind: Kind

    package init(column: String, kind: Kind) {
        self.column = column
        self.kind = kind
    }
}

/// A filter the request got wrong: the field and what is wrong with it (a 422 over REST).
package struct RecordFilterError: Error, Equatable {
    package var field: String
    package var message: String
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

    static let operators: [String: String] = ["lt": "<", "lte": "<=", "gt": ">", "gte": ">=", "ne": "!=", "eq": "="]

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
            let values: [String]
            switch op {
            case "in", "nin":
                values = value.split(separator: ",").map { String($0).trimmingCharacters(" ") }.filter { !$0.isEmpty }
            case _ where operators[op] != nil:
                values = [value.trimmingCharacters(" ")]
            default:
                throw RecordFilterError(field: fieldName, message: "unsupported operator '\(op)'")
            }
            for v in values {
                switch field.kind {
                case .integer, .real:
                    guard Double(v) != nil else { throw RecordFilterError(field: fieldName, message: "is not a number: \(v)") }
                case .text: break
                }
            }
            filters.append(RecordFilter(field: field, op: op, values: values))
        }
        return filters
    }

    /// `(sql, arguments)` for a WHERE clause.
    var sql: (String, [SQLiteValue]) {
        let arguments: [SQLiteValue] = values.map { v in
            switch field.kind {
            // A number beyond Int (1e300, inf, nan) compares as a real: Int(Double) would trap.
            case .integer: return Int(v).map(SQLiteValue.int) ?? .real(Double(v) ?? 0)
            case .real: return .real(Double(v) ?? 0)
            case .text: return .text(v)
            }
        }
        switch op {
        case "in", "nin":
            if values.isEmpty { return (op == "in" ? "0" : "1", []) }
            let marks = values.map { _ in "?" }.joined(separator: ",")
            return ("\(field.column) \(op == "in" ? "IN" : "NOT IN") (\(marks))", arguments)
        default:
            return ("\(field.column) \(RecordFilter.operators[op] ?? "=") ?", arguments)
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
