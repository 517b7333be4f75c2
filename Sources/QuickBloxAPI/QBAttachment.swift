/// A file attached to a message (docs/protocol.md §6). Every field is optional on
/// the wire; `id` is the blob uid.
public struct QBAttachment: Sendable, Equatable {
    /// "image", "video", "audio", "file", … as the sender chose.
    public var type: String?
    public var id: String?
    public var name: String?
    /// Bytes.
    public var size: Int?
    public var url: String?
    /// `content-type`.
    public var contentType: String?
    /// The attachment object as received; empty for one built here.
    public var raw: [String: JSONValue]

    public init(type: String? = nil, id: String? = nil, name: String? = nil, size: Int? = nil, url: String? = nil,
                contentType: String? = nil, raw: [String: JSONValue] = [:]) {
        self.type = type; self.id = id; self.name = name; self.size = size; self.url = url
        self.contentType = contentType; self.raw = raw
    }

    /// From an attachment object; nil for anything but an object.
    public init?(json: JSONValue) {
        guard let members = json.objectValue else { return nil }
        self.init(type: json["type"]?.looseString, id: json["id"]?.looseString, name: json["name"]?.looseString,
                  size: json["size"]?.looseInt, url: json["url"]?.looseString,
                  contentType: (json["content-type"] ?? json["content_type"])?.looseString, raw: members)
    }

    /// The wire form, without the fields that are nil.
    var json: JSONValue {
        var members: [String: JSONValue] = [:]
        if let type { members["type"] = .string(type) }
        if let id { members["id"] = .string(id) }
        if let name { members["name"] = .string(name) }
        if let size { members["size"] = .int(size) }
        if let url { members["url"] = .string(url) }
        if let contentType { members["content-type"] = .string(contentType) }
        return .object(members)
    }

    /// `attachments` as an array, or as the object keyed "0", "1", … that form-encoded
    /// senders leave behind.
    static func list(from json: JSONValue?) -> [QBAttachment] {
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
