import SandboxClock
import SandboxJSON

/// What a user says about themselves, as sign-up and the user object carry it.
package struct UserProfile {
    package var fullName: String?
    package var email: String?
    package var phone: String?
    package var website: String?
    package var externalUserId: Int?
    package var customData: String?
    /// The blob of the user's picture (their avatar); nil for none.
    package var blobId: Int?
    /// `user[tag_list]`, in the order given; empty for none.
    package var tags: [String]
    /// Ids on other services, as given (text): the reference's look-ups find a user by them.
    package var facebookId: String?
    package var twitterId: String?
    package var twitterDigitsId: String?

    package init(fullName: String? = nil, email: String? = nil, phone: String? = nil, website: String? = nil,
                 externalUserId: Int? = nil, customData: String? = nil, blobId: Int? = nil, tags: [String] = [],
                 facebookId: String? = nil, twitterId: String? = nil, twitterDigitsId: String? = nil) {
        self.fullName = fullName; self.email = email; self.phone = phone; self.website = website
        self.externalUserId = externalUserId; self.customData = customData; self.blobId = blobId; self.tags = tags
        self.facebookId = facebookId; self.twitterId = twitterId; self.twitterDigitsId = twitterDigitsId
    }

    /// The `tags` column: a JSON array (`["a","b"]`, which SQL reads with `json_each`), nil for none.
    static func stored(tags: [String]) -> String? {
        tags.isEmpty ? nil : JSONNode.array(tags.map(JSONNode.string)).serialized
    }

    static func tags(stored: String?) -> [String] {
        guard let stored, case .array(let items)? = try? JSONParser.parse(Array(stored.utf8)) else { return [] }
        return items.compactMap { if case .string(let tag) = $0 { tag } else { nil } }
    }
}

/// A stored user (without the password hash).
package struct UserRecord {
    package var id: Int
    /// nil for a user who signed up with an email alone.
    package var login: String?
    package var profile: UserProfile
    package var createdAt: Double
    package var updatedAt: Double
    package var lastRequestAt: Double?

    /// The `user` object as the protocol names its keys.
    package var json: JSONNode {
        .object([
            ("id", .int(id)),
            ("login", .optionalString(login)),
            ("full_name", .optionalString(profile.fullName)),
            ("email", .optionalString(profile.email)),
            ("phone", .optionalString(profile.phone)),
            ("website", .optionalString(profile.website)),
            // An integer, as the hosted service answers it (the reference says string; docs/protocol.md §11).
            ("external_user_id", .optionalInt(profile.externalUserId)),
            ("facebook_id", .optionalString(profile.facebookId)),
            ("twitter_id", .optionalString(profile.twitterId)),
            ("twitter_digits_id", .optionalString(profile.twitterDigitsId)),
            ("custom_data", .optionalString(profile.customData)),
            ("blob_id", .optionalInt(profile.blobId)),
            ("created_at", .string(SandboxTime.iso8601(createdAt))),
            ("updated_at", .string(SandboxTime.iso8601(updatedAt))),
            ("last_request_at", lastRequestAt.map { .string(SandboxTime.iso8601($0)) } ?? .null),
            // An array, as the reference's UserObject has it (docs/protocol.md §3).
            ("user_tags", .array(profile.tags.map { .string($0) })),
        ])
    }
}

/// The fields a sign-up may set.
package struct NewUser {
    /// nil: an email alone (one of the two is required).
    package var login: String?
    package var password: String
    package var profile: UserProfile

    package init(login: String?, password: String, profile: UserProfile = UserProfile()) {
        self.login = login; self.password = password; self.profile = profile
    }
}
