// The update operators applied to a record's fields as its class types them (docs/protocol.md §13).
import SandboxJSON

extension CustomClass {
    /// Most fields a class may have: each is a column of every answer.
    package static let maximumFields = 200

    /// `fields` with `changes` applied in order; a field first named here joins the class
    /// (typed by its value). A File field is left as it is: files come by upload, and a record
    /// sent back as it was read carries its file's description.
    package mutating func apply(_ changes: [FieldChange], to fields: inout [String: JSONNode], fromForm: Bool) throws(FieldProblem) {
        for change in changes {
            let name = change.field
            let sample: JSONNode
            switch change {
            case .set(_, let v), .increment(_, let v): sample = v
            case .push(_, let vs), .addToSet(_, let vs), .pullAll(_, let vs): sample = .array(vs)
            case .element(_, _, let v): sample = .array([v])
            case .pull, .pullWhere, .pop:
                // Removing from a field the class lacks changes nothing.
                guard field(name) != nil else { continue }
                sample = .null
            }
            guard let field = try field(name, for: sample, fromForm: fromForm) else { continue }
            if self.fields.count > Self.maximumFields {
                throw FieldProblem(name, "is one field too many: a class has at most \(Self.maximumFields)")
            }
            if field.type == .file { continue }
            let current = fields[name] ?? .null
            let updated = try Self.applying(change, to: current, of: field)
            fields[name] = updated == .null ? nil : updated
        }
    }

    private static func applying(_ change: FieldChange, to current: JSONNode, of field: CustomField) throws(FieldProblem) -> JSONNode {
        switch change {
        case .set(_, let value):
            return try field.cast(value)
        case .increment(_, let amount):
            guard !field.isArray, field.type == .integer || field.type == .float else {
                throw FieldProblem(field.name, "is \(field.typeName) field: inc takes numbers only")
            }
            let step = try field.castItem(amount)
            guard case .number(let a) = step else { return current }
            var base = 0.0
            if case .number(let b) = current { base = Double(b) ?? 0 }
            return try field.castItem(CustomField.number(base + (Double(a) ?? 0)))
        default:
            guard field.isArray else { throw FieldProblem(field.name, "is \(field.typeName) field, not an array") }
            var items: [JSONNode] = []
            if case .array(let existing) = current { items = existing }
            return .array(try arrayApplying(change, to: items, of: field))
        }
    }

    private static func arrayApplying(_ change: FieldChange, to items: [JSONNode], of field: CustomField) throws(FieldProblem) -> [JSONNode] {
        var items = items
        switch change {
        case .push(_, let values):
            items += try values.map { (v) throws(FieldProblem) in try field.castItem(v) }
        case .addToSet(_, let values):
            for value in values {
                guard case .array(let cast) = try field.cast(value) else { continue }
                for item in cast where !items.contains(item) { items.append(item) }
            }
        case .pull(_, let value):
            let target = try field.castItem(value)
            items.removeAll { $0 == target }
        case .pullAll(_, let values):
            let targets = try values.map { (v) throws(FieldProblem) in try field.castItem(v) }
            items.removeAll { targets.contains($0) }
        case .pullWhere(_, let rules):
            var tests: [(JSONNode) -> Bool] = []
            for rule in rules {
                let op = rule.op
                guard FieldChange.pullOperators.contains(op) else {
                    throw FieldProblem(field.name, "pull takes lt, lte, gt, gte, ne, in and nin, not \(op)")
                }
                if op == "in" || op == "nin" {
                    guard case .array(let targets) = try field.cast(rule.value) else { continue }
                    tests.append { targets.contains($0) == (op == "in") }
                } else {
                    let target = try field.castItem(rule.value)
                    tests.append { compare($0, target).map { holds(op, $0) } ?? (op == "ne") }
                }
            }
            items.removeAll { item in tests.allSatisfy { $0(item) } }
        case .pop(_, let end):
            switch end {
            case .number("1"), .string("1"): if !items.isEmpty { items.removeLast() }
            case .number("-1"), .string("-1"): if !items.isEmpty { items.removeFirst() }
            default: throw FieldProblem(field.name, "pop takes 1 (the last item) or -1 (the first)")
            }
        case .element(_, let index, let value):
            guard index >= 0, index <= items.count else {
                throw FieldProblem(field.name, "has no item \(index) (it has \(items.count))")
            }
            let item = try field.castItem(value)
            if index == items.count { items.append(item) } else { items[index] = item }
        case .set, .increment:
            break
        }
        return items
    }

    /// The order of two items of one field: numbers by value, text (and dates) by their bytes;
    /// nil when they do not compare (booleans, or mixed kinds).
    private static func compare(_ a: JSONNode, _ b: JSONNode) -> Int? {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            guard let p = Double(x), let q = Double(y) else { return nil }
            return p < q ? -1 : (p > q ? 1 : 0)
        case (.string(let x), .string(let y)):
            return x == y ? 0 : (x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1)
        case (.bool(let x), .bool(let y)):
            return x == y ? 0 : nil
        default: return nil
        }
    }

    private static func holds(_ op: String, _ order: Int) -> Bool {
        switch op {
        case "lt": order < 0
        case "lte": order <= 0
        case "gt": order > 0
        case "gte": order >= 0
        case "ne": order != 0
        default: false
        }
    }
}
