// A custom object class's fields (docs/protocol.md §13): their types, how a value a request
// gives is cast to one, and which type a field gets from the first value written to it.
import SandboxClock
import SandboxJSON

/// A field's type, by QuickBlox's names (`Integer`, `Float`, …). Location is not among them:
/// a class is made from the values written to it, and a pair of numbers is a Float array.
package enum CustomFieldType: String, CaseIterable {
    case integer = "Integer", float = "Float", boolean = "Boolean", string = "String", date = "Date", file = "File"
}

/// One field of a class.
package struct CustomField: Equatable {
    package var name: String
    package var type: CustomFieldType
    /// An array of `type` (a File field never is).
    package var isArray: Bool

    package init(name: String, type: CustomFieldType, isArray: Bool = false) {
        self.name = name
        self.type = type
        self.isArray = isArray
    }

    /// Names of the record itself, of the list's parameters and of the update operators,
    /// which no field may take.
    package static let reservedNames: Set<String> = [
        "_id", "_parent_id", "user_id", "created_at", "updated_at", "permissions", "class_name",
        "skip", "limit", "count", "sort_asc", "sort_desc", "output", "group_by", "token",
        "inc", "push", "pull", "pull_all", "pop", "add_to_set", "search_criteria", "record",
    ]

    /// A name a field may have: a letter or `_`, then letters, digits and `_`; at most 64.
    /// Names are written into SQL as JSON paths (`$.name`), so nothing else may pass.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 64, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: "_") }
    }

    private static func isLetter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }

    /// `value` as this field stores it (`.null` clears it). Text is read as the type wants
    /// (`"0.12"` for a Float), as the service casts values to the class; an array field takes
    /// a JSON array, a form's `name[]` values, or one text of comma-separated items.
    package func cast(_ value: JSONNode) throws(FieldProblem) -> JSONNode {
        if case .null = value { return .null }
        guard isArray else { return try castItem(value) }
        switch value {
        case .array(let items): return .array(try items.map { (item) throws(FieldProblem) in try castItem(item) })
        case .string(let text):
            let parts = text.split(separator: ",").map { String($0).trimmingCharacters(" ") }.filter { !$0.isEmpty }
            return .array(try parts.map { (part) throws(FieldProblem) in try castItem(.string(part)) })
        default: return .array([try castItem(value)])
        }
    }

    /// One value of this field's type (an array field's item).
    package func castItem(_ value: JSONNode) throws(FieldProblem) -> JSONNode {
        switch (type, value) {
        case (.integer, .number(let text)):
            if let v = Int(text) { return .int(v) }
            if let d = Double(text), d.rounded() == d, let v = Int(exactly: d) { return .int(v) }
        case (.integer, .string(let text)):
            if let v = Int(text.trimmingCharacters(" ")) { return .int(v) }
        case (.float, .number(let text)), (.float, .string(let text)):
            if let d = Double(text.trimmingCharacters(" ")), d.isFinite { return Self.number(d) }
        case (.boolean, .bool): return value
        case (.boolean, .string(let text)), (.boolean, .number(let text)):
            switch text.lowercased() {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: break
            }
        case (.string, .string): return value
        case (.string, .number(let text)): return .string(text)
        case (.string, .bool(let b)): return .string(b ? "true" : "false")
        case (.date, .string(let text)):
            if let seconds = Self.parseDate(text) { return .string(SandboxTime.iso8601(seconds)) }
        case (.date, .number(let text)):
            if let seconds = Double(text), seconds.isFinite, abs(seconds) < 1e11 { return .string(SandboxTime.iso8601(seconds.rounded(.down))) }
        default: break
        }
        throw FieldProblem(name, "is not \(type.article) \(type.rawValue.lowercased())\(isArray ? " array" : ""): \(Self.describe(value))")
    }

    /// The field a first value makes: its type read from the value (JSON's own types; a form's
    /// text read as a number, `true`/`false` or an ISO 8601 date when it is written as one).
    /// Nil for `null`, which makes no field.
    package static func inferred(_ name: String, from value: JSONNode, fromForm: Bool) throws(FieldProblem) -> CustomField? {
        switch value {
        case .null: return nil
        case .array(let items):
            guard let first = items.first(where: { $0 != .null }) else { return CustomField(name: name, type: .string, isArray: true) }
            if case .array = first { throw FieldProblem(name, "is an array of arrays, which no field holds") }
            if case .object = first { throw FieldProblem(name, "is an array of objects, which no field holds") }
            return CustomField(name: name, type: scalarType(of: first, fromForm: fromForm), isArray: true)
        case .object: throw FieldProblem(name, "is an object, which no field holds")
        default: return CustomField(name: name, type: scalarType(of: value, fromForm: fromForm))
        }
    }

    private static func scalarType(of value: JSONNode, fromForm: Bool) -> CustomFieldType {
        switch value {
        case .bool: return .boolean
        case .number(let text): return Int(text) != nil ? .integer : .float
        case .string(let text):
            if parseISO8601Date(text) != nil { return .date }
            guard fromForm else { return .string }
            if ["true", "false"].contains(text) { return .boolean }
            if Int(text) != nil, isPlainNumber(text) { return .integer }
            if let d = Double(text), d.isFinite, isPlainNumber(text) { return .float }
            return .string
        default: return .string
        }
    }

    /// Digits with an optional sign and one point: `"1e3"`, `"inf"` and `" 7"` stay text.
    private static func isPlainNumber(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "-" { body = body.dropFirst() }
        return !body.isEmpty && body.filter { $0 == "." }.count <= 1 && body.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            && body.first != "." && body.last != "."
    }

    /// Seconds of `2019-09-21T21:21:00Z`, or of the service's example form `2019-09-21 21:21:00` (UTC).
    static func parseDate(_ text: String) -> Double? {
        parseISO8601Date(text) ?? parseISO8601Date(text.replacingSpace() + "Z")
    }

    private static func parseISO8601Date(_ text: String) -> Double? { SandboxTime.parseISO8601(text) }

    /// A finite number as JSON: whole numbers without a fraction (`2`, not `2.0`).
    package static func number(_ d: Double) -> JSONNode {
        if d.rounded() == d, abs(d) < 1e15, let v = Int(exactly: d) { return .int(v) }
        return .number(String(d))
    }

    /// A short rendering of a value for an error message.
    static func describe(_ value: JSONNode) -> String {
        let text = value.serialized
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

extension CustomFieldType {
    fileprivate var article: String { self == .integer ? "an" : "a" }
}

extension String {
    /// The one space between a date and a time made a `T` (`2019-09-21 21:21:00`).
    fileprivate func replacingSpace() -> String {
        guard utf8.count == 19, let space = firstIndex(of: " ") else { return self }
        var copy = self
        copy.replaceSubrange(space...space, with: "T")
        return copy
    }
}
