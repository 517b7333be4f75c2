// Listing, counting and aggregating custom object records (docs/protocol.md §13): only the
// records the caller may read are ever seen.
internal import SQLiteStore
import SandboxJSON

extension CustomObjectStore {
    /// A page of the class's records matching `criteria` that the caller may read. An unknown
    /// class has none.
    package func records(_ className: String, where criteria: RecordCriteria, order: RecordOrder, limit: Int, skip: Int,
                         caller: RecordCaller) throws -> (cls: CustomClass, items: [CustomRecord]) {
        guard let cls = try customClass(className) else { return (CustomClass(name: className), []) }
        return (cls, try select(cls, criteria, action: .read, caller: caller, order: try order.sql(in: cls), limit: limit, skip: skip))
    }

    /// How many records of the class match `criteria` and the caller may read.
    package func count(_ className: String, where criteria: RecordCriteria, caller: RecordCaller) throws -> Int {
        guard try customClass(className) != nil else { return 0 }
        let (condition, arguments) = criteria.sql
        let (permitted, permittedArguments) = Self.permitted(.read, caller)
        return try db.queryFirst("SELECT COUNT(*) FROM custom_objects r WHERE r.class_name = ? AND \(condition) AND \(permitted)",
                                 [.text(className)] + arguments + permittedArguments) { $0.int(0) } ?? 0
    }

    /// The records `ids` names that the caller may read, in the order named; and whether any
    /// named one exists at all (readable or not).
    package func records(_ className: String, ids: [String], caller: RecordCaller) throws -> (cls: CustomClass, items: [CustomRecord], anyExists: Bool) {
        guard let cls = try customClass(className) else { return (CustomClass(name: className), [], false) }
        var items: [CustomRecord] = []
        var anyExists = false
        for id in ids {
            guard let record = try self.record(id, in: className) else { continue }
            anyExists = true
            if record.permissions.read.admits(caller.userId, tags: caller.tags, ownerId: record.ownerId) { items.append(record) }
        }
        return (cls, items, anyExists)
    }

    /// `group_by` with `calc`: one item per value of `groupBy` (in that value's order) among the
    /// records matching `criteria` that the caller may read, holding the group's value and each
    /// calculation (`{"game_mode":"ctf","score_avg":12.5}`); without `groupBy`, one item for all.
    package func aggregate(_ className: String, where criteria: RecordCriteria, groupBy: String?, calculations: [RecordCalculation],
                           limit: Int, skip: Int, caller: RecordCaller) throws -> [JSONNode] {
        guard let cls = try customClass(className) else { return [] }
        if let groupBy {
            guard CustomField.isValidName(groupBy) else { throw FieldProblem("group_by", "is not a field: \(groupBy)") }
            if let field = cls.field(groupBy), field.type == .file || field.isArray {
                throw FieldProblem("group_by", "\(groupBy) is \(field.typeName) field, which groups nothing")
            }
        }
        var selected: [String] = []
        for calculation in calculations {
            guard CustomField.isValidName(calculation.field) else { throw FieldProblem(calculation.field, "is not a field") }
            let field = cls.field(calculation.field)
            if let field, field.isArray || field.type == .file {
                throw FieldProblem(calculation.field, "is \(field.typeName) field: calc needs single values")
            }
            if [.avg, .sum].contains(calculation.operation), let field, field.type != .integer && field.type != .float {
                throw FieldProblem(calculation.field, "is \(field.typeName) field: \(calculation.operation.rawValue) needs numbers")
            }
            selected.append("\(calculation.operation.rawValue.uppercased())(json_extract(r.fields, '$.\(calculation.field)'))")
        }
        let group = groupBy.map { "json_extract(r.fields, '$.\($0)')" }
        let columns = ([group ?? "NULL"] + selected).joined(separator: ", ")
        let (condition, arguments) = criteria.sql
        let (permitted, permittedArguments) = Self.permitted(.read, caller)
        var sql = "SELECT \(columns) FROM custom_objects r WHERE r.class_name = ? AND \(condition) AND \(permitted)"
        if let group { sql += " GROUP BY \(group) ORDER BY \(group)" }
        sql += " LIMIT ? OFFSET ?"
        return try db.query(sql, [.text(className)] + arguments + permittedArguments + [.int(limit), .int(skip)]) { row in
            var members: [(String, JSONNode)] = []
            if let groupBy { members.append((groupBy, Self.json(row.value(0), as: cls.field(groupBy)))) }
            for (i, calculation) in calculations.enumerated() {
                let value = row.value(i + 1)
                let field = calculation.operation == .avg ? nil : cls.field(calculation.field)
                members.append((calculation.key, Self.json(value, as: field)))
            }
            return .object(members)
        }
    }

    /// A value SQLite read out of a record's JSON, as the field's answers show it.
    private static func json(_ value: SQLiteValue, as field: CustomField?) -> JSONNode {
        switch value {
        case .null, .blob: return .null
        case .integer(let v):
            if field?.type == .boolean { return .bool(v != 0) }
            return .int(Int(v))
        case .real(let d): return d.isFinite ? CustomField.number(d) : .null
        case .text(let s): return .string(s)
        }
    }
}
