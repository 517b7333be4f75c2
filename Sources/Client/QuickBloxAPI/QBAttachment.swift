/// A file attached to a message (docs/protocol.md §6, §8). Every field is optional on
/// the wire and read loosely (numbers or text; `content-type` as the SDKs write it, or
/// `content_type`); `type` is kept as the sender wrote it; `id` is the blob uid.
package struct QBAttachment: Sendable, Equatable {
    /// "image", "video", "audio", "file", … as the sender chose.
    package var type: String?
    package var id: String?
    package var name: String?
    /// Bytes: a number or a numeric string (`2048`, `"2048"`, `2048.0`); nil when absent or not whole.
    package var size: Int?
    package var url: String?
    /// `content-type`.
    package var contentType: String?
    /// The attachment object as received; empty for one built here.
    package var raw: [String: JSONValue]

    package init(type: String? = nil, id: String? = nil, name: String? = nil, size: Int? = nil, url: String? = nil,
                contentType: String? = nil, raw: [String: JSONValue] = [:]) {
        self.type = type; self.id = id; self.name = name; self.size = size; self.url = url
        self.contentType = contentType; self.raw = raw
    }

    /// From an attachment object; nil for anything but an object.
    package init?(json: JSONValue) {
        guard let members = json.objectValue else { return nil }
        self.init(type: json["type"]?.looseString, id: json["id"]?.looseString, name: json["name"]?.looseString,
                  size: json["size"]?.looseInt.flatMap { $0 >= 0 ? $0 : nil }, url: json["url"]?.looseString,
                  contentType: (json["content-type"] ?? json["content_type"])?.looseString, raw: members)
    }

    /// The wire form (docs/protocol.md §8): what the sender sent, with the typed fields
    /// over it (`size` a number, `content-type` spelt as the SDKs spell it); nil fields
    /// left out. What chatctl sends, and what it keeps of a message it sent.
    package var json: JSONValue { rawWithFields(contentTypeKey: "content-type") }

    /// As `--json` shows it: every key the sender sent, and the normalised ones over
    /// them: `type`, `id` (text), `name`, `size` (a number of bytes), `content_type`, `url`,
    /// each when known. A value that cannot be read (a size of "lots") stays as it came.
    package var normalizedJSON: JSONValue { rawWithFields(contentTypeKey: "content_type") }

    private func rawWithFields(contentTypeKey: String) -> JSONValue {
        var members = raw
        if let type { members["type"] = .string(type) }
        if let id { members["id"] = .string(id) }
        if let name { members["name"] = .string(name) }
        if let size { members["size"] = .int(size) }
        if let url { members["url"] = .string(url) }
        if let contentType { members[contentTypeKey] = .string(contentType) }
        return .object(members)
    }

    /// `attachments` as an array, or as the object keyed "0", "1", … that form-encoded
    /// senders leave behind; entries that are not objects are skipped.
    package static func list(from json: JSONValue?) -> [QBAttachment] {
        switch json {
        case .array(let items)?:
            return items.compactMap(QBAttachment.init(json:))
        case .object(let members)?:
            let keys = members.keys.sorted { (Int($0) ?? .max, $0) < (Int($1) ?? .max, $1) }
            return keys.compactMap { members[$0].flatMap(QBAttachment.init(json:)) }
        default:
            return []
        }
    }
}
