// A user's own record (docs/protocol.md §3, "Profile"): `PUT`/`DELETE /users/{id}.json`, the
// lookups by tags and external id, and the password reset, in process over the route table.
import Foundation
import Testing
import SandboxREST
import SandboxStorage

@Suite("REST user profile")
struct UserProfileRESTTests {
    private func user(_ reply: ChatAPIFixture.Reply) -> [String: Any] { reply.object["user"] as? [String: Any] ?? [:] }

    @Test func aUserChangesTheirFieldsByFormAndByJSON() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        let form = "user%5Bfull_name%5D=Ann+Q&user%5Bphone%5D=555&user%5Bwebsite%5D=https%3A%2F%2Fann.example&user%5Btag_list%5D=cats%2C+dogs"
        let one = try f.call(.put, "/users/\(ann.id).json", form: form, token: ann.token)
        #expect(one.status == 200, "\(one.text)")
        #expect(user(one)["full_name"] as? String == "Ann Q" && user(one)["phone"] as? String == "555")
        #expect(user(one)["website"] as? String == "https://ann.example")
        #expect(user(one)["user_tags"] as? [String] == ["cats", "dogs"])
        let two = try f.call(.put, "/users/\(ann.id).json",
                             json: #"{"user":{"email":"ann@example.com","custom_data":"{\"a\":1}","tag_list":["birds"],"phone":""}}"#,
                             token: ann.token)
        #expect(two.status == 200, "\(two.text)")
        #expect(user(two)["email"] as? String == "ann@example.com" && user(two)["custom_data"] as? String == #"{"a":1}"#)
        #expect(user(two)["user_tags"] as? [String] == ["birds"])
        #expect(user(two)["phone"] is NSNull, "an empty value clears")
        #expect(user(two)["full_name"] as? String == "Ann Q", "what is not sent stays")
        #expect(try f.database.user(id: ann.id)?.profile.fullName == "Ann Q")
    }

    @Test func aTakenLoginOrEmailIs422WithTheField() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        _ = try f.call(.put, "/users/\(bob.id).json", form: "user%5Bemail%5D=bob@example.com", token: bob.token)
        let taken = try f.call(.put, "/users/\(ann.id).json", form: "user%5Blogin%5D=BOB&user%5Bemail%5D=bob@example.com", token: ann.token)
        #expect(taken.status == 422)
        #expect(taken.text == #"{"errors":{"login":["has already been taken"],"email":["has already been taken"]}}"#)
        #expect(try f.database.user(id: ann.id)?.login == "ann", "nothing changed")
        // Their own login again is no conflict; a blank one is refused.
        #expect(try f.call(.put, "/users/\(ann.id).json", form: "user%5Blogin%5D=ann", token: ann.token).status == 200)
        let blank = try f.call(.put, "/users/\(ann.id).json", form: "user%5Blogin%5D=", token: ann.token)
        #expect(blank.status == 422 && blank.text == #"{"errors":{"login":["can't be blank"]}}"#)
        let renamed = try f.call(.put, "/users/\(ann.id).json", form: "user%5Blogin%5D=annie", token: ann.token)
        #expect(user(renamed)["login"] as? String == "annie")
    }

    @Test func thePasswordChangesOnlyWithTheOldOne() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let noOld = try f.call(.put, "/users/\(ann.id).json", json: #"{"user":{"password":"brand-new-pw"}}"#, token: ann.token)
        #expect(noOld.status == 422 && noOld.text == #"{"errors":{"old_password":["can't be blank"]}}"#)
        let wrongOld = try f.call(.put, "/users/\(ann.id).json", json: #"{"user":{"old_password":"nope-nope","password":"brand-new-pw"}}"#,
                                  token: ann.token)
        #expect(wrongOld.status == 422 && wrongOld.text == #"{"errors":{"old_password":["is incorrect"]}}"#)
        let short = try f.call(.put, "/users/\(ann.id).json", json: #"{"user":{"old_password":"password-ann","password":"short"}}"#,
                               token: ann.token)
        #expect(short.status == 422 && short.text == #"{"errors":{"password":["is too short (minimum is 8 characters)"]}}"#)
        let changed = try f.call(.put, "/users/\(ann.id).json", json: #"{"user":{"old_password":"password-ann","password":"brand-new-pw"}}"#,
                                 token: ann.token)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(try f.database.verifyPassword(userId: ann.id, "brand-new-pw") == .accepted)
        #expect(try f.database.verifyPassword(userId: ann.id, "password-ann") == .refused)
        let other = try f.call(.put, "/users/\(ann.id).json", json: #"{"user":{"full_name":"X"}}"#, token: bob.token)
        #expect(other.status == 403)
    }

    @Test func deletingTheAccountEndsItsSessionsAndKeepsPrivateDialogsForTheOtherSide() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)
        let dialogId = dialog["_id"] as? String ?? ""
        _ = try f.send(dialogId, "hello", token: ann.token)
        #expect(try f.call(.delete, "/users/\(ann.id).json", token: bob.token).status == 403)
        let deleted = try f.call(.delete, "/users/\(ann.id).json", token: ann.token)
        #expect(deleted.status == 200 && deleted.text.isEmpty)
        #expect(try f.database.user(id: ann.id) == nil)
        #expect(try f.call(.get, "/users/\(ann.id).json", token: bob.token).status == 404)
        #expect(try f.call(.get, "/chat/Dialog.json", token: ann.token).status == 401, "her session ended")
        let bobs = try f.call(.get, "/chat/Dialog.json", token: bob.token)
        #expect(bobs.items.contains { $0["_id"] as? String == dialogId }, "\(bobs.text)")
        let messages = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialogId)", token: bob.token)
        #expect(messages.items.first?["message"] as? String == "hello")
    }

    @Test func usersByTagsIsAPageOfAnyTag() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cid = try f.user("cid")
        _ = try f.call(.put, "/users/\(ann.id).json", form: "user%5Btag_list%5D=cats,dogs", token: ann.token)
        _ = try f.call(.put, "/users/\(bob.id).json", form: "user%5Btag_list%5D=Dogs", token: bob.token)
        _ = try f.call(.put, "/users/\(cid.id).json", form: "user%5Btag_list%5D=catsup", token: cid.token)
        let page = try f.call(.get, "/users/by_tags.json", query: "tags=dogs", token: cid.token)
        #expect(page.status == 200 && page.object["total_entries"] as? Int == 2)
        #expect(page.items.compactMap { ($0["user"] as? [String: Any])?["id"] as? Int } == [ann.id, bob.id])
        let cats = try f.call(.get, "/users/by_tags.json", query: "tags=cats,nobody", token: cid.token)
        #expect(cats.items.compactMap { ($0["user"] as? [String: Any])?["id"] as? Int } == [ann.id], "a whole tag, not a part")
        #expect(try f.call(.get, "/users/by_tags.json", token: cid.token).status == 422)
    }

    @Test func usersByExternalIdAreFoundAndRemovedByThemselves() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        _ = try f.call(.put, "/users/\(ann.id).json", form: "user%5Bexternal_user_id%5D=4711", token: ann.token)
        let found = try f.call(.get, "/users/external/4711.json", token: bob.token)
        #expect(found.status == 200 && user(found)["id"] as? Int == ann.id && user(found)["external_user_id"] as? Int == 4711)
        #expect(try f.call(.get, "/users/external/1.json", token: bob.token).status == 404)
        #expect(try f.call(.delete, "/users/external/4711.json", token: bob.token).status == 403)
        #expect(try f.call(.delete, "/users/external/4711.json", token: ann.token).status == 200)
        #expect(try f.database.user(id: ann.id) == nil)
    }

    @Test func aPasswordResetIsAnsweredAndLoggedWithoutMail() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        _ = try f.call(.put, "/users/\(ann.id).json", form: "user%5Bemail%5D=ann@example.com", token: ann.token)
        var lines: [String] = []
        f.api.notice = { lines.append($0) }
        let known = try f.call(.get, "/password/reset.json", query: "email=ann@example.com", token: ann.token)
        let unknown = try f.call(.get, "/password/reset.json", query: "email=who@example.com", token: ann.token)
        #expect(known.status == 200 && known.text.isEmpty && unknown.status == 200 && unknown.text.isEmpty,
                "the answer tells nobody who has an account")
        #expect(lines == ["users: password reset asked for ann@example.com (user \(ann.id)); no mail sent",
                          "users: password reset asked for who@example.com (no such user)"])
        #expect(try f.call(.get, "/password/reset.json", token: ann.token).status == 422)
    }
}
