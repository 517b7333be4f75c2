// Managing dialogs, messages and users (docs/protocol.md §3, §5, §6): who may rename,
// add, remove, delete and edit, and finding users; in process over the route table.
import Foundation
import Testing
import SandboxREST
import SandboxStorage

@Suite("REST dialog management")
struct DialogManagementRESTTests {
    @Test func onlyTheOwnerRenamesAndAnyOccupantAdds() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let id = try f.createDialog("type=2&name=ops&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let renamed = try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"name":"ops2"}"#, token: ann.token)
        #expect(renamed.status == 200 && renamed.object["name"] as? String == "ops2")
        let bobRenames = try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"name":"bobs"}"#, token: bob.token)
        #expect(bobRenames.status == 403 && bobRenames.text == forbiddenBody)
        let bobPhoto = try f.call(.put, "/chat/Dialog/\(id).json", form: "photo=x", token: bob.token)
        #expect(bobPhoto.status == 403)
        // Bob may bring Cat in, but not put Ann out; he may leave himself.
        let added = try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"push_all":{"occupants_ids":[\#(cat.id)]}}"#, token: bob.token)
        #expect(added.status == 200 && added.object["occupants_ids"] as? [Int] == [ann.id, bob.id, cat.id])
        let kick = try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"pull_all":{"occupants_ids":[\#(ann.id)]}}"#, token: bob.token)
        #expect(kick.status == 403)
        let left = try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"pull_all":{"occupants_ids":[\#(bob.id)]}}"#, token: bob.token)
        #expect(left.status == 200 && left.object["occupants_ids"] as? [Int] == [ann.id, cat.id])
        // Nothing Bob was refused happened.
        let now = try f.call(.get, "/chat/Dialog.json", query: "_id=\(id)", token: ann.token).items.first
        #expect(now?["name"] as? String == "ops2" && now?["photo"] is NSNull)
    }

    @Test func aPrivateDialogCannotBeRenamed() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let id = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let renamed = try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"name":"us"}"#, token: ann.token)
        #expect(renamed.status == 422)
        #expect(renamed.text == #"{"errors":{"name":["cannot be set for a private dialog"]}}"#)
    }

    @Test func aPublicGroupIsItsOwners() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let id = try f.createDialog("type=1&name=lobby", token: ann.token)["_id"] as! String
        #expect(try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"push_all":{"occupants_ids":[\#(bob.id)]}}"#, token: ann.token).status == 200)
        let bobAdds = try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"push_all":{"occupants_ids":[\#(cat.id)]}}"#, token: bob.token)
        #expect(bobAdds.status == 403)
        let bobLeaves = try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"pull_all":{"occupants_ids":[\#(bob.id)]}}"#, token: bob.token)
        #expect(bobLeaves.status == 200 && bobLeaves.object["occupants_ids"] as? [Int] == [ann.id])
    }

    @Test func forceDeleteByAnyoneButTheOwnerIsRefusedAndChangesNothing() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let id = try f.createDialog("type=2&name=ops&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let refused = try f.call(.delete, "/chat/Dialog/\(id).json", query: "force=1", token: bob.token)
        #expect(refused.status == 403 && refused.text == forbiddenBody)
        let several = try f.call(.delete, "/chat/Dialog/\(id),0123456789abcdef01234567.json", query: "force=1", token: bob.token)
        #expect(several.text == #"{"SuccessfullyDeleted":{"ids":[]},"NotFound":{"ids":["0123456789abcdef01234567"]},"WrongPermissions":{"ids":["\#(id)"]}}"#)
        let still = try f.call(.get, "/chat/Dialog.json", query: "_id=\(id)", token: bob.token).items.first
        #expect(still?["occupants_ids"] as? [Int] == [ann.id, bob.id])
    }
}

@Suite("REST message edits and deletions")
struct MessageManagementRESTTests {
    func pair() throws -> (ChatAPIFixture, ann: (id: Int, token: String), bob: (id: Int, token: String), dialog: String) {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        return (f, ann, bob, dialog)
    }

    @Test func theSenderEditsAndEveryoneSeesIt() throws {
        let (f, ann, bob, dialog) = try pair()
        let id = try f.send(dialog, "helo", token: ann.token)["_id"] as! String
        f.clock.now += 5
        let edited = try f.call(.put, "/chat/Message/\(id).json", json: #"{"chat_dialog_id":"\#(dialog)","message":"hello"}"#, token: ann.token)
        #expect(edited.status == 200 && edited.text.isEmpty)
        let seen = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&mark_as_read=0", token: bob.token).items.first
        #expect(seen?["message"] as? String == "hello")
        #expect(seen?["created_at"] as? String != seen?["updated_at"] as? String)
        let listed = try f.call(.get, "/chat/Dialog.json", token: bob.token).items.first
        #expect(listed?["last_message"] as? String == "hello")
    }

    @Test func editsByOthersBlankOrMisplacedAreRefused() throws {
        let (f, ann, bob, dialog) = try pair()
        let id = try f.send(dialog, "mine", token: ann.token)["_id"] as! String
        let byBob = try f.call(.put, "/chat/Message/\(id).json", form: "message=theirs&chat_dialog_id=\(dialog)", token: bob.token)
        #expect(byBob.status == 403 && byBob.text == forbiddenBody)
        let blank = try f.call(.put, "/chat/Message/\(id).json", form: "message=", token: ann.token)
        #expect(blank.status == 422 && blank.text == #"{"errors":{"message":["can't be blank"]}}"#)
        let long = try f.call(.put, "/chat/Message/\(id).json", form: "message=" + String(repeating: "a", count: ChatStore.maxMessageBytes + 1), token: ann.token)
        #expect(long.status == 422)
        let wrongDialog = try f.call(.put, "/chat/Message/\(id).json", form: "message=x&chat_dialog_id=0123456789abcdef01234567", token: ann.token)
        #expect(wrongDialog.status == 404 && wrongDialog.text == notFoundBody)
        let unknown = try f.call(.put, "/chat/Message/0123456789abcdef01234567.json", form: "message=x", token: ann.token)
        #expect(unknown.status == 404)
        let two = try f.call(.put, "/chat/Message/\(id),\(id).json", form: "message=x", token: ann.token)
        #expect(two.status == 422)
        let seen = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: ann.token).items.first
        #expect(seen?["message"] as? String == "mine")
    }

    @Test func deletingWithoutForceHidesTheMessageFromTheCallerOnly() throws {
        let (f, ann, bob, dialog) = try pair()
        let id = try f.send(dialog, "unread by bob", token: ann.token)["_id"] as! String
        #expect(try f.call(.get, "/chat/Message/unread.json", token: bob.token).object["total"] as? Int == 1)
        let hidden = try f.call(.delete, "/chat/Message/\(id).json", token: bob.token)
        #expect(hidden.text == #"{"SuccessfullyDeleted":{"ids":["\#(id)"]},"NotFound":{"ids":[]},"WrongPermissions":{"ids":[]}}"#)
        #expect(try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: bob.token).items.isEmpty)
        #expect(try f.call(.get, "/chat/Message/unread.json", token: bob.token).object["total"] as? Int == 0)
        #expect(try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: ann.token).items.count == 1)
        // Gone for Bob: a second delete or an edit finds nothing.
        let again = try f.call(.delete, "/chat/Message/\(id).json", token: bob.token)
        #expect(again.text == #"{"SuccessfullyDeleted":{"ids":[]},"NotFound":{"ids":["\#(id)"]},"WrongPermissions":{"ids":[]}}"#)
    }

    @Test func onlyTheSenderDeletesForEveryone() throws {
        let (f, ann, bob, dialog) = try pair()
        let id = try f.send(dialog, "ann's words", token: ann.token)["_id"] as! String
        let byBob = try f.call(.delete, "/chat/Message/\(id).json", query: "force=1", token: bob.token)
        #expect(byBob.status == 200)
        #expect(byBob.text == #"{"SuccessfullyDeleted":{"ids":[]},"NotFound":{"ids":[]},"WrongPermissions":{"ids":["\#(id)"]}}"#)
        #expect(try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: bob.token).items.count == 1)
        let byAnn = try f.call(.delete, "/chat/Message/\(id).json", query: "force=1", token: ann.token)
        #expect(byAnn.text == #"{"SuccessfullyDeleted":{"ids":["\#(id)"]},"NotFound":{"ids":[]},"WrongPermissions":{"ids":[]}}"#)
        #expect(try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: bob.token).items.isEmpty)
    }
}

@Suite("REST user search")
struct UserSearchRESTTests {
    @Test func byFullNameMatchesPartsIgnoringCaseAndPages() throws {
        let f = try ChatAPIFixture()
        var ids: [Int] = []
        for (login, name) in [("ann", "Ann Lee"), ("bob", "Bob Leeson"), ("cat", "Cat Smith"), ("odd", "100%_sure")] {
            let user = try f.database.insertUser(NewUser(login: login, password: "password-1", profile: UserProfile(fullName: name)))
            ids.append(user.id)
        }
        let token = try f.user("viewer").token
        let first = try f.call(.get, "/users/by_full_name.json", query: "full_name=lee&per_page=1", token: token)
        #expect(first.status == 200)
        #expect(first.object["total_entries"] as? Int == 2 && first.object["per_page"] as? Int == 1)
        #expect(first.items.compactMap { ($0["user"] as? [String: Any])?["id"] as? Int } == [ids[0]])
        let second = try f.call(.get, "/users/by_full_name.json", query: "full_name=LEE&page=2&per_page=1", token: token)
        #expect(second.items.compactMap { ($0["user"] as? [String: Any])?["login"] as? String } == ["bob"])
        // % and _ are letters here, not wildcards.
        let literal = try f.call(.get, "/users/by_full_name.json", query: "full_name=0%25_s", token: token)
        #expect(literal.items.count == 1)
        #expect(try f.call(.get, "/users/by_full_name.json", query: "full_name=e%25e", token: token).items.isEmpty)
        let short = try f.call(.get, "/users/by_full_name.json", query: "full_name=an", token: token)
        #expect(short.status == 422 && short.text == #"{"errors":{"full_name":["is too short (minimum is 3 characters)"]}}"#)
    }

    @Test func byEmailIsExactAnd404Otherwise() throws {
        let f = try ChatAPIFixture()
        let eve = try f.database.insertUser(NewUser(login: "eve", password: "password-1", profile: UserProfile(email: "Eve@Example.com")))
        let token = try f.user("viewer").token
        let found = try f.call(.get, "/users/by_email.json", query: "email=eve%40example.com", token: token)
        #expect(found.status == 200 && (found.object["user"] as? [String: Any])?["id"] as? Int == eve.id)
        let missing = try f.call(.get, "/users/by_email.json", query: "email=eve%40example.org", token: token)
        #expect(missing.status == 404 && missing.text == notFoundBody)
        #expect(try f.call(.get, "/users/by_email.json", token: token).status == 404)
    }
}
