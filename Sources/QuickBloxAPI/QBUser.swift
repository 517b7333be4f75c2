/// A QuickBlox user: the common fields typed, every field as received in `raw`.
public struct QBUser: Sendable, Equatable {
    public var id: Int
    public var login: String?
    public var fullName: String?
    public var email: String?
    public var raw: [String: JSONValue]
    public init(id: Int, login: String?, fullName: String?, email: String?, raw: [String: JSONValue]) {
        self.id = id; self.login = login; self.fullName = fullName; self.email = email; self.raw = raw
    }

    /// From the members of a `user` object; nil without an integer `id`.
    public init?(json: JSONValue) {
        guard let members = json.objectValue, let id = json["id"]?.intValue else { return nil }
        self.init(id: id, login: json["login"]?.stringValue, fullName: json["full_name"]?.stringValue,
                  email: json["email"]?.stringValue, raw: members)
    }
}
