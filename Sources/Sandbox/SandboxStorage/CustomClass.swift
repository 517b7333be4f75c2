// A custom object class (docs/protocol.md §13): its name and its fields, made by the first
// values written to them.
import SandboxJSON

package struct CustomClass: Equatable {
    package var name: String
    /// In the order they were made.
    package var fields: [CustomField]

    package init(name: String, fields: [CustomField] = []) {
        self.name = name
        self.fields = fields
    }

    /// A name a class may have: a letter, then letters, digits and `_`; at most 64.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (first >= 65 && first <= 90) || (first >= 97 && first <= 122) else { return false }
        return CustomField.isValidName(name)
    }

    package func field(_ name: String) -> CustomField? { fields.first { $0.name == name } }

    /// The field `name`, made from `value` when the class has none by that name yet (nil:
    /// no field, for a null); a name no field may take is refused.
    package mutating func field(_ name: String, for value: JSONNode, fromForm: Bool) throws(FieldProblem) -> CustomField? {
        if let known = field(name) { return known }
        guard CustomField.isValidName(name), !CustomField.reservedNames.contains(name) else {
            throw FieldProblem(name, "is not a name a field may have (a letter or _, then letters, digits and _; not a reserved name)")
        }
        guard let made = try CustomField.inferred(name, from: value, fromForm: fromForm) else { return nil }
        fields.append(made)
        return made
    }

    /// A File field called `name`, made when missing; refused when the field holds something else.
    package mutating func fileField(_ name: String) throws(FieldProblem) -> CustomField {
        if let known = field(name) {
            guard known.type == .file else { throw FieldProblem("field_name", "\(name) is \(known.typeName) field, not a file field") }
            return known
        }
        guard CustomField.isValidName(name), !CustomField.reservedNames.contains(name) else {
            throw FieldProblem("field_name", "is not a name a field may have: \(name)")
        }
        let made = CustomField(name: name, type: .file)
        fields.append(made)
        return made
    }

    /// As the database keeps it: `[["name","Integer",false],…]`.
    package var storedFields: String {
        JSONNode.array(fields.map { .array([.string($0.name), .string($0.type.rawValue), .bool($0.isArray)]) }).serialized
    }

    static func fields(stored text: String) -> [CustomField] {
        guard case .array(let rows)? = try? JSONParser.parse(Array(text.utf8)) else { return [] }
        return rows.compactMap { row in
            guard case .array(let parts) = row, parts.count == 3, case .string(let name) = parts[0],
                  case .string(let typeName) = parts[1], let type = CustomFieldType(rawValue: typeName),
                  case .bool(let isArray) = parts[2] else { return nil }
            return CustomField(name: name, type: type, isArray: isArray)
        }
    }
}

extension CustomField {
    /// `an Integer`, `a String array`: for messages.
    var typeName: String { (type == .integer ? "an " : "a ") + type.rawValue + (isArray ? " array" : "") }
}
