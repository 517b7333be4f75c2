import SandboxClock
import SandboxJSON

/// A stored user (without the password hash).
package struct UserRecord {
    package var id: Int
    /// nil for a user who signed up with an email alone.
    package var login: String?
    package var fullName: String?
    package var email: String?
    package var phone: String?
    package var website: String?
    package var externalUserId: Int?
    package var customData: String?
    package var createdAt: Double
    package var updatedAt: Double
    package var lastRequestAt: Double?

    /// The `user` object as the protocol names its keys.
    package var json: JSONNode {
        .object([
            ("id", .int(id)),
            ("login", .optionalString(login)),
            ("full_name", .optionalString(fullName)),
            ("email", .optionalString(email)),
            ("phone", .optionalString(phone)),
            ("website", .optionalString(website)),
            ("external_user_id", .optionalInt(externalUserId)),
            ("custom_data", .optionalString(customData)),
            ("created_at", .string(SandboxTime.iso8601(createdAt))),
            ("updated_at", .string(SandboxTime.iso8601(updatedAt))),
            ("last_request_at", lastRequestAt.map { .string(SandboxTime.iso8601($0)) } ?? .null),
        ])
    }
}

/// The fields a sign-up may set.
package struct NewUser {
    /// nil: an email alone (one of the two is required).
    package var login: String?
    package var password: String
    package var fullName: String?
    package var email: String?
    package var phone: String?
    package var website: String?
    package var externalUserId: Int?
    package var customData: String?

    package init(login: String?, password: String, fullName: String? = nil, email: String? = nil, phone: String? = nil,
                 website: String? = nil, externalUserId: Int? = nil, customData: String? = nil) {
        self.login = login
        self.password = password
        self.fullName = fullName
        self.email = email
        self.phone = phone
        self.website = website
        self.externalUserId = externalUserId
        self.customData = customData
    }
}
