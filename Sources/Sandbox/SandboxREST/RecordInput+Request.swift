// A record's fields, update operators, parent and permissions read from a request's tree
// (docs/protocol.md §13).
import SandboxJSON
import SandboxStorage

extension RecordInput {
    /// Keys of a record that a request may carry back (a record as it was read) and that
    /// change nothing: the server keeps them.
    static let keptKeys: Set<String> = ["_id", "user_id", "created_at", "updated_at", "class_name", "token"]

    /// The input `members` give: `field=value`; `inc`, `push`, `pull`, `pull_all`, `pop`,
    /// `add_to_set` (`{"push":{"tags":["a"]}}`, or `push[tags][]=a`); `field[index]=value`;
    /// `_parent_id`; `permissions`. What the server keeps (`_id`, `created_at`, …) is passed over.
    init(_ members: [(String, JSONNode)], fromForm: Bool) throws(FieldProblem) {
        self.init(fromForm: fromForm)
        for (key, value) in members where !Self.keptKeys.contains(key) {
            switch key {
            case "_parent_id":
                let text = value.text ?? ""
                parentId = .some(text.isEmpty ? nil : text)
            case "permissions":
                permissions = value
            case "inc", "push", "pull", "pull_all", "pop", "add_to_set":
                guard case .object(let targets) = value else { throw FieldProblem(key, "names its fields: \(key)[field]=…") }
                for (field, operand) in targets { changes += try Self.operation(key, field, operand) }
            default:
                if case .object(let indexed) = value, !indexed.isEmpty, indexed.allSatisfy({ Int($0.0) != nil }) {
                    // `tags[2]=6`: one item of an array.
                    for (index, item) in indexed { changes.append(.element(key, index: Int(index) ?? 0, item)) }
                } else {
                    changes.append(.set(key, value))
                }
            }
        }
    }

    private static func operation(_ name: String, _ field: String, _ operand: JSONNode) throws(FieldProblem) -> [FieldChange] {
        let items: [JSONNode]
        if case .array(let values) = operand { items = values } else { items = [operand] }
        switch name {
        case "inc": return [.increment(field, operand)]
        case "push": return [.push(field, items)]
        case "pull_all": return [.pullAll(field, items)]
        case "pop": return [.pop(field, operand)]
        case "add_to_set": return [.addToSet(field, items)]
        default:
            // `pull[field]=v`, or `pull[field][gt]=4`.
            guard case .object(let rules) = operand else { return [.pull(field, operand)] }
            return [.pullWhere(field, rules.map { PullRule(op: $0.0, value: $0.1) })]
        }
    }
}
