/// What `PUT /users/{id}.json` changes: only the fields that are set are sent. An empty
/// string clears a text field; `blobID` `.some(nil)` clears the picture.
package struct QBUserUpdate: Sendable, Equatable {
    package var login: String?
    package var fullName: String?
    package var email: String?
    package var phone: String?
    package var website: String?
    package var customData: String?
    package var tags: [String]?
    package var blobID: Int??
    /// Both or neither: the service changes a password only with the old one.
    package var oldPassword: String?
    package var password: String?

    package init(login: String? = nil, fullName: String? = nil, email: String? = nil, phone: String? = nil,
                 website: String? = nil, customData: String? = nil, tags: [String]? = nil, blobID: Int?? = nil,
                 oldPassword: String? = nil, password: String? = nil) {
        self.login = login; self.fullName = fullName; self.email = email; self.phone = phone; self.website = website
        self.customData = customData; self.tags = tags; self.blobID = blobID
        self.oldPassword = oldPassword; self.password = password
    }

    package var isEmpty: Bool { body.isEmpty }

    /// The members of `{"user":{…}}`.
    var body: [String: JSONValue] {
        var user: [String: JSONValue] = [:]
        let texts: [(String, String?)] = [("login", login), ("full_name", fullName), ("email", email), ("phone", phone),
                                          ("website", website), ("custom_data", customData),
                                          ("old_password", oldPassword), ("password", password)]
        for (key, value) in texts { if let value { user[key] = .string(value) } }
        // `tag_list` as the reference's form default has it: `a,b`.
        if let tags { user["tag_list"] = .string(tags.joined(separator: ",")) }
        if let blobID { user["blob_id"] = blobID.map(JSONValue.int) ?? .null }
        return user
    }
}
