// Bracketed form names read back into the nesting they stand for, so that a form body and a
// JSON body reach the custom object handlers as the same tree (docs/protocol.md §13).
import SandboxJSON

enum FormTree {
    /// `a=1&b[c]=2&d[]=3&d[]=4` → `{"a":"1","b":{"c":"2"},"d":["3","4"]}`: every value text, keys
    /// in the order they first came; a name that is not `key[k]…` is left out.
    static func build(_ parameters: [(String, String)]) -> JSONNode {
        var root = JSONNode.object([])
        for (name, value) in parameters {
            guard let path = keyPath(name) else { continue }
            insert(.string(value), at: path[...], into: &root)
        }
        return root
    }

    /// A request's tree: its JSON body, or its form (and query) parameters; whether it came as a form.
    static func of(_ request: RESTRequest) -> (tree: JSONNode, fromForm: Bool) {
        if let json = request.json { return (json, false) }
        return (build(request.parameters), true)
    }

    /// `b[c][]` → `["b", "c", ""]`; nil for an unbalanced name.
    static func keyPath(_ name: String) -> [String]? {
        guard let open = name.firstIndex(of: "[") else { return name.isEmpty ? nil : [name] }
        var keys = [String(name[..<open])]
        var rest = name[open...]
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
            keys.append(String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return keys[0].isEmpty ? nil : keys
    }

    /// `value` put at `path` under `node`: an empty key appends to an array, another names an
    /// object's member (a text already there gives way to the object).
    private static func insert(_ value: JSONNode, at path: ArraySlice<String>, into node: inout JSONNode) {
        guard let key = path.first else {
            node = value
            return
        }
        if key.isEmpty {
            var items: [JSONNode] = []
            if case .array(let existing) = node { items = existing }
            var child = JSONNode.null
            insert(value, at: path.dropFirst(), into: &child)
            items.append(child)
            node = .array(items)
            return
        }
        var members: [(String, JSONNode)] = []
        if case .object(let existing) = node { members = existing }
        if let i = members.firstIndex(where: { $0.0 == key }) {
            insert(value, at: path.dropFirst(), into: &members[i].1)
        } else {
            var child = JSONNode.null
            insert(value, at: path.dropFirst(), into: &child)
            members.append((key, child))
        }
        node = .object(members)
    }
}

extension JSONNode {
    /// An object's members (none for anything else).
    var members: [(String, JSONNode)] {
        if case .object(let members) = self { return members }
        return []
    }

    /// A scalar as request text (`100`, `true`, `a`); an array's items joined by commas.
    var text: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .array(let items):
            let texts = items.compactMap(\.text)
            return texts.count == items.count ? texts.joined(separator: ",") : nil
        case .null, .object: return nil
        }
    }
}
