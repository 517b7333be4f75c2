// A user's changes to their own record (docs/protocol.md §3, "Avatars").
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// `PUT /users/{id}.json` with `user[blob_id]` (form or JSON): the session's user sets
    /// the blob of their picture, or clears it with an empty value or null. 200 with the
    /// user; 403 for anyone else's record, 404 for no such user, 422 for an id that is no
    /// number. Other profile fields are left as they are (not taken yet).
    func updateUser(_ context: RESTContext) throws(RESTError) -> RESTResponse {
        guard let id = context.request.pathParameters["id"].flatMap({ Int($0) }),
              try storage({ try database.user(id: id) }) != nil else { throw .notFound }
        guard context.session?.userId == id else { throw .forbidden }
        var user = try storage { try database.user(id: id) }
        if let text = context.request.parameter("user[blob_id]") {
            var blobId: Int?
            if !text.isEmpty && text != "null" {
                guard let number = Int(text), number > 0 else { throw .field(422, "blob_id", "is not a number") }
                blobId = number
            }
            user = try storage { try database.setAvatar(userId: id, blobId: blobId) }
        }
        guard let user else { throw .notFound }
        return .json(200, .object([("user", user.json)]))
    }
}
