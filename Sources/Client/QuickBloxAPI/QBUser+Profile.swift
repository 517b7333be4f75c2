/// The user fields that only a profile shows, read loosely from `raw` (a number may come
/// as a string, tags as an array or as `a,b`).
extension QBUser {
    /// The blob of the user's picture; nil for none (null, absent or 0).
    package var blobID: Int? { raw["blob_id"]?.looseInt.flatMap { $0 > 0 ? $0 : nil } }
    package var phone: String? { raw["phone"]?.looseString }
    package var website: String? { raw["website"]?.looseString }
    package var customData: String? { raw["custom_data"]?.looseString }
    package var externalUserID: Int? { raw["external_user_id"]?.looseInt }
    /// `user_tags` (the reference's array; `a,b` read too); empty for none.
    package var tags: [String] { raw["user_tags"]?.looseStringList ?? [] }
    package var createdAt: String? { raw["created_at"]?.looseString }
    package var lastRequestAt: String? { raw["last_request_at"]?.looseString }
}
