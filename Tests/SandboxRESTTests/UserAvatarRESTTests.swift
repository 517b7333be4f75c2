// A user's avatar (docs/protocol.md §3, "Avatars"): `PUT /users/{id}.json` with `blob_id`,
// in process over the route table.
import Foundation
import Testing
import SandboxREST
import SandboxStorage

@Suite("REST user avatars")
struct UserAvatarRESTTests {
    @Test func aUserSetsTheirBlobIdAndEveryoneReadsIt() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let fresh = try f.call(.get, "/users/\(bob.id).json", token: ann.token)
        #expect((fresh.object["user"] as? [String: Any])?["blob_id"] is NSNull, "none yet: \(fresh.text)")
        let set = try f.call(.put, "/users/\(bob.id).json", json: #"{"user":{"blob_id":42}}"#, token: bob.token)
        #expect(set.status == 200 && (set.object["user"] as? [String: Any])?["blob_id"] as? Int == 42, "\(set.text)")
        let seen = try f.call(.get, "/users.json", query: "filter%5B%5D=number+id+in+\(bob.id)", token: ann.token).items.first
        #expect((seen?["user"] as? [String: Any])?["blob_id"] as? Int == 42)
        // A form, and an empty value clears it.
        let cleared = try f.call(.put, "/users/\(bob.id).json", form: "user%5Bblob_id%5D=", token: bob.token)
        #expect(cleared.status == 200 && (cleared.object["user"] as? [String: Any])?["blob_id"] is NSNull)
    }

    @Test func onlyTheUserChangesTheirRecord() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let refused = try f.call(.put, "/users/\(bob.id).json", json: #"{"user":{"blob_id":42}}"#, token: ann.token)
        #expect(refused.status == 403 && refused.text == forbiddenBody)
        #expect(try f.database.user(id: bob.id)?.profile.blobId == nil, "nothing changed")
        #expect(try f.call(.put, "/users/999.json", json: #"{"user":{"blob_id":1}}"#, token: ann.token).status == 404)
        let bad = try f.call(.put, "/users/\(ann.id).json", json: #"{"user":{"blob_id":"cat"}}"#, token: ann.token)
        #expect(bad.status == 422 && bad.text == #"{"errors":{"blob_id":["is not a number"]}}"#)
    }
}
