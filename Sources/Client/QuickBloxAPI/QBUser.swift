/// A QuickBlox user: the common fields typed, every field as received in `raw`.
package struct QBUser: Sendable, Equatable {
    package var id: Int
    package var login: String?
    package var fullName: String?
    package var email: String?
    package var raw: [String: JSONValue]
    package init(id: Int, login: String?, fullName: String?, email: String?, raw: [String: JSONValue]) {
        self.id = id; self.login = login; self.fullName = fullName; self.email = email; self.raw = raw
    }

    /// From the members of a `user` object; nil without an integer `id`.
    package init?(json: JSONValue) {
        guard let members = json.objectValue, let id = json["id"]?.intValue else { return nil }
        self.init(id: id, login: json["login"]?.stringValue, fullName: json["full_name"]?.stringValue,
                  email: json["email"]?.stringValue, raw: members)
    }
}
