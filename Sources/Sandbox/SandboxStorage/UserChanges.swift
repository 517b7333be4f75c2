/// What `PUT /users/{id}.json` changes: nil leaves a field as it is; for the optional
/// fields `.some(nil)` clears it.
package struct UserChanges {
    package var login: String?
    package var email: String??
    package var fullName: String??
    package var phone: String??
    package var website: String??
    package var customData: String??
    package var externalUserId: Int??
    package var blobId: Int??
    package var tags: [String]?
    package var facebookId: String??
    package var twitterId: String??
    package var twitterDigitsId: String??
    /// A new password, already checked against the old one and the rule.
    package var password: String?

    package init() {}

    package var isEmpty: Bool {
        login == nil && email == nil && fullName == nil && phone == nil && website == nil && customData == nil
            && externalUserId == nil && blobId == nil && tags == nil && password == nil
            && facebookId == nil && twitterId == nil && twitterDigitsId == nil
    }
}
