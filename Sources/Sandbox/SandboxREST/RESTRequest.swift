// A parsed REST request and its reply, independent of libevent (handlers are testable without sockets).
import SandboxHTTP
import SandboxJSON

/// A request as handlers see it: method, path, headers and every parameter (query + body).
package struct RESTRequest {
    var method: HTTPRequest.Method
    var path: String
    /// Header names lowercased.
    var headers: [String: String]
    /// Query and body parameters flattened to bracketed names (`user[login]`), in arrival order.
    var parameters: [(String, String)]
    /// The parsed JSON body, when the body was JSON.
    var json: JSONNode?
    /// The files of a `multipart/form-data` body (its text fields are among `parameters`).
    var files: [UploadedFile] = []
    /// Values captured from the route pattern (`{id}`).
    var pathParameters: [String: String] = [:]
    /// The client's address (no port), which wrong passwords count against; nil: not counted by address.
    package var peerAddress: String?

    /// The first value of `name`, if present.
    func parameter(_ name: String) -> String? { parameters.first { $0.0 == name }?.1 }
    /// Every value of `name` (e.g. `filter[]`).
    func parameters(_ name: String) -> [String] { parameters.filter { $0.0 == name }.map(\.1) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
    /// A yes-or-no parameter: `1` or `true`, `0` or `false` (any case); nil when not given or
    /// empty, else a 422 on `field` (default: `name`).
    func flag(_ name: String, field: String? = nil) throws(RESTError) -> Bool? {
        guard let text = parameter(name)?.trimmingSpaces.lowercased(), !text.isEmpty else { return nil }
        switch text {
        case "1", "true": return true
        case "0", "false": return false
        default: throw .field(422, field ?? name, "must be 0 or 1 (or true or false)")
        }
    }

    /// A list given as `name=a,b` and/or `name[]=a&name[]=b` (a JSON array), each value split
    /// on commas, trimmed, empty items and repeats dropped; nil when neither is given.
    func list(_ name: String) -> [String]? {
        let given = parameters(name) + parameters(name + "[]")
        guard !given.isEmpty else { return nil }
        var items: [String] = []
        for text in given {
            for item in text.split(separator: ",").map({ String($0.trimmingSpaces) }) where !item.isEmpty && !items.contains(item) {
                items.append(item)
            }
        }
        return items
    }

    package init(method: HTTPRequest.Method, path: String, headers: [String: String], query: String?, body: [UInt8]) throws(RESTError) {
        self.method = method
        self.path = path
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        var parameters = RESTRequest.parseForm(query ?? "")
        let contentType = self.headers["content-type"]?.lowercased() ?? ""
        let trimmed = body.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if trimmed.isEmpty {
            // A form Content-Type on a bodiless GET/DELETE is fine.
        } else if let boundary = MultipartForm.boundary(contentType: self.headers["content-type"] ?? "") {
            guard let form = MultipartForm.parse(body, boundary: boundary) else { throw RESTError.badRequest("Malformed multipart body") }
            parameters += form.fields
            files = form.files
        } else if contentType.hasPrefix("application/json") || (!contentType.contains("form") && trimmed.first == UInt8(ascii: "{")) {
            let value: JSONNode
            do { value = try JSONParser.parse(body) } catch let error as JSONParseError {
                throw RESTError.badRequest("Malformed JSON body: \(error.message) at byte \(error.offset)")
            } catch {
                throw RESTError.badRequest("Malformed JSON body")
            }
            guard case .object = value else { throw RESTError.badRequest("The JSON body must be an object") }
            json = value
            RESTRequest.flatten(value, prefix: nil, into: &parameters)
        } else {
            guard let text = String(validating: body, as: UTF8.self) else {
                throw RESTError.badRequest("Malformed form body: not UTF-8")
            }
            parameters += RESTRequest.parseForm(text)
        }
        self.parameters = parameters
    }

    /// `a=1&user[login]=x+y&b=%26` → pairs, `+` as space, percent-decoded. Malformed escapes stay literal.
    static func parseForm(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decodeComponent(String(parts[0]))
            let value = parts.count > 1 ? decodeComponent(String(parts[1])) : ""
            return (name, value)
        }
    }

    static func decodeComponent(_ s: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(s.utf8)
        var i = 0
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "+") {
                out.append(0x20); i += 1
            } else if c == UInt8(ascii: "%"), i + 2 < bytes.count,
                      let h = hexValue(bytes[i + 1]), let l = hexValue(bytes[i + 2]) {
                out.append(h << 4 | l); i += 3
            } else {
                out.append(c); i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nested JSON objects become bracketed names, arrays `name[]`, scalars their text.
    static func flatten(_ value: JSONNode, prefix: String?, into out: inout [(String, String)]) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                flatten(member, prefix: prefix.map { "\($0)[\(key)]" } ?? key, into: &out)
            }
        case .array(let items):
            guard let prefix else { return }
            for item in items { flatten(item, prefix: "\(prefix)[]", into: &out) }
        case .string(let s): if let prefix { out.append((prefix, s)) }
        case .number(let n): if let prefix { out.append((prefix, n)) }
        case .bool(let b): if let prefix { out.append((prefix, b ? "true" : "false")) }
        case .null: break
        }
    }
}

