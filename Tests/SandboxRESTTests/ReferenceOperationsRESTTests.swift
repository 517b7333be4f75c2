// The reference's operations the sandbox answers beyond chat's (docs/protocol.md §3, §5, §6, §8),
// and its list filters, in process over the route table.
import Foundation
import Testing
import TestSupport
import SandboxREST
import SandboxStorage

@Suite("REST reference operations")
struct ReferenceOperationsRESTTests {
    @Test func occupantsJoinAndLeaveSeveralDialogsAtOnce() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat"), dan = try f.user("dan")
        let group = try f.createDialog("type=2&name=ops&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let pair = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let unknown = "0123456789abcdef01234567"
        let added = try f.call(.post, "/chat/Dialogs/add_occupants.json",
                               form: "users_ids=\(cat.id),\(dan.id),999&dialogs_ids=\(group),\(pair),\(unknown)", token: ann.token)
        #expect(added.status == 200)
        #expect(added.text == #"{"users":{"SuccessfullyDeleted":[\#(cat.id),\#(dan.id)],"WrongPermissions":[],"NotFound":[999]},"dialogs":{"SuccessfullyDeleted":["\#(group)"],"WrongPermissions":["\#(pair)"],"NotFound":["\#(unknown)"]}}"#)
        let now = try f.call(.get, "/chat/Dialog.json", query: "_id=\(group)", token: ann.token).items.first
        #expect(now?["occupants_ids"] as? [Int] == [ann.id, bob.id, cat.id, dan.id])
        // Bob, not the owner, may not put Cat out; he may leave (JSON arrays accepted too).
        let kick = try f.call(.post, "/chat/Dialogs/remove_occupants.json",
                              json: #"{"users_ids":[\#(cat.id)],"dialogs_ids":["\#(group)"]}"#, token: bob.token)
        #expect(kick.status == 200 && (kick.object["dialogs"] as? [String: Any])?["WrongPermissions"] as? [String] == [group])
        #expect((kick.object["users"] as? [String: Any])?["WrongPermissions"] as? [Int] == [cat.id])
        let leave = try f.call(.post, "/chat/Dialogs/remove_occupants.json", form: "users_ids=\(bob.id)&dialogs_ids=\(group)", token: bob.token)
        #expect((leave.object["dialogs"] as? [String: Any])?["SuccessfullyDeleted"] as? [String] == [group])
        let after = try f.call(.get, "/chat/Dialog.json", query: "_id=\(group)", token: ann.token).items.first
        #expect(after?["occupants_ids"] as? [Int] == [ann.id, cat.id, dan.id])
        let blank = try f.call(.post, "/chat/Dialogs/add_occupants.json", form: "", token: ann.token)
        #expect(blank.status == 422 && blank.text == #"{"errors":{"users_ids":["can't be blank"],"dialogs_ids":["can't be blank"]}}"#)
    }

    /// The JavaScript SDK's spelling (`/chat/Message.json`) and the reference's, an empty message id
    /// (`/chat/Message/.json`), mean the same.
    @Test(arguments: ["/chat/Message.json", "/chat/Message/.json"])
    func aPutWithoutAnIdMarksTheWholeDialogRead(path: String) throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(ann.id)", token: bob.token)["_id"] as! String
        for text in ["one", "two", "three"] { _ = try f.send(dialog, text, token: bob.token) }
        #expect(try f.call(.get, "/chat/Message/unread.json", token: ann.token).object["total"] as? Int == 3)
        let marked = try f.call(.put, path, form: "chat_dialog_id=\(dialog)&read=1", token: ann.token)
        #expect(marked.status == 200 && marked.text.isEmpty)
        #expect(try f.call(.get, "/chat/Message/unread.json", token: ann.token).object["total"] as? Int == 0)
        let items = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&mark_as_read=0", token: bob.token).items
        #expect(items.allSatisfy { ($0["read_ids"] as? [Int])?.contains(ann.id) == true && ($0["delivered_ids"] as? [Int])?.contains(ann.id) == true })
        #expect(try f.call(.put, path, form: "chat_dialog_id=\(dialog)", token: ann.token).status == 422)
        #expect(try f.call(.put, path, form: "read=1", token: ann.token).status == 422)
        let stranger = try f.user("eve")
        #expect(try f.call(.put, path, form: "chat_dialog_id=\(dialog)&read=1", token: stranger.token).status == 403)
    }

    @Test func aMessageToARecipientFindsOrMakesTheirPrivateDialogAndKeepsItsDate() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let first = try f.call(.post, "/chat/Message.json", form: "recipient_id=\(bob.id)&message=hi&date_sent=1473075233", token: ann.token)
        #expect(first.status == 201)
        #expect(first.object["date_sent"] as? Int == 1473075233, "the client's date_sent is kept")
        #expect(first.object["recipient_id"] as? Int == bob.id)
        let dialogId = try #require(first.object["chat_dialog_id"] as? String)
        let dialog = try f.call(.get, "/chat/Dialog.json", query: "_id=\(dialogId)", token: bob.token).items.first
        #expect(dialog?["type"] as? Int == 3 && dialog?["occupants_ids"] as? [Int] == [ann.id, bob.id])
        let second = try f.call(.post, "/chat/Message.json", json: #"{"recipient_id":\#(bob.id),"message":"again"}"#, token: ann.token)
        #expect(second.object["chat_dialog_id"] as? String == dialogId, "the same dialog, not a new one")
        #expect(second.object["date_sent"] as? Int == 1_700_000_000, "without one, the server's clock")
        let noSuchUser = try f.call(.post, "/chat/Message.json", form: "recipient_id=999&message=x", token: ann.token)
        #expect(noSuchUser.status == 422 && noSuchUser.text == #"{"errors":{"recipient_id":["is not a user: 999"]}}"#)
        let badDate = try f.call(.post, "/chat/Message.json", form: "recipient_id=\(bob.id)&message=x&date_sent=soon", token: ann.token)
        #expect(badDate.status == 422 && badDate.text == #"{"errors":{"date_sent":["is not a number"]}}"#)
        let neither = try f.call(.post, "/chat/Message.json", form: "message=x", token: ann.token)
        #expect(neither.text == #"{"errors":{"chat_dialog_id":["can't be blank"]}}"#)
    }

    @Test func countOneAnswersTheCountOnly() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        _ = try f.createDialog("type=2&name=g&occupants_ids=\(bob.id)", token: ann.token)
        for text in ["a", "b", "c"] { _ = try f.send(dialog, text, token: ann.token) }
        #expect(try f.call(.get, "/chat/Dialog.json", query: "count=1", token: ann.token).text == #"{"items_count":2}"#)
        #expect(try f.call(.get, "/chat/Dialog.json", query: "count=1&type=3", token: ann.token).text == #"{"items_count":1}"#)
        let messages = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&count=1&message[ne]=b", token: bob.token)
        #expect(messages.text == #"{"items_count":2}"#)
        #expect(try f.call(.get, "/chat/Message/unread.json", token: bob.token).object["total"] as? Int == 3, "counting marks nothing read")
    }

    @Test func messageFiltersOnTextAndAttachmentTypesAndSorts() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        _ = try f.send(dialog, "hello guys", token: ann.token)
        f.clock.now += 1
        _ = try f.send(dialog, "photo", token: bob.token, extra: "&attachments%5B0%5D%5Btype%5D=image&attachments%5B0%5D%5Bid%5D=u1")
        f.clock.now += 1
        _ = try f.send(dialog, "song", token: ann.token, extra: "&attachments%5B0%5D%5Btype%5D=audio&attachments%5B1%5D%5Btype%5D=image")
        func texts(_ query: String) throws -> [String] {
            let reply = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&mark_as_read=0&" + query, token: ann.token)
            #expect(reply.status == 200, "\(query): \(reply.text)")
            return reply.items.compactMap { $0["message"] as? String }
        }
        #expect(try texts("message%5Bctn%5D=guys") == ["hello guys"])
        #expect(try texts("message=photo") == ["photo"])
        #expect(try texts("message%5Bor%5D=photo,song") == ["photo", "song"])
        #expect(try texts("attachments.type=image") == ["photo", "song"])
        #expect(try texts("attachments.type%5Bnin%5D=audio") == ["hello guys", "photo"], "nin also matches a message without attachments")
        #expect(try texts("attachments.type%5Ball%5D=image,audio") == ["song"])
        #expect(try texts("attachments.type%5Bne%5D=image") == ["hello guys"])
        #expect(try texts("sort_desc=sender_id&sender_id%5Bin%5D=\(ann.id),\(bob.id)").first == (ann.id > bob.id ? "song" : "photo"))
        #expect(try texts("sort_desc=date_sent") == ["song", "photo", "hello guys"])
        let scalarAll = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&sender_id%5Ball%5D=1", token: ann.token)
        #expect(scalarAll.status == 422 && scalarAll.text == #"{"errors":{"sender_id":["operator 'all' applies to list fields only"]}}"#)
        let numberCtn = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&date_sent%5Bctn%5D=1", token: ann.token)
        #expect(numberCtn.status == 422)
    }

    @Test func dialogFiltersOnOccupantsNamesAndDates() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let ops = try f.createDialog("type=2&name=ops%20room&occupants_ids=\(bob.id),\(cat.id)", token: ann.token)["_id"] as! String
        f.clock.now += 10
        let dev = try f.createDialog("type=2&name=dev&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        func ids(_ query: String) throws -> [String] {
            let reply = try f.call(.get, "/chat/Dialog.json", query: query + "&sort_asc=created_at", token: ann.token)
            #expect(reply.status == 200, "\(query): \(reply.text)")
            return reply.items.compactMap { $0["_id"] as? String }
        }
        #expect(try ids("occupants_ids%5Ball%5D=\(bob.id),\(cat.id)") == [ops])
        #expect(try ids("occupants_ids=\(bob.id)") == [ops, dev])
        #expect(try ids("occupants_ids%5Bnin%5D=\(cat.id)") == [dev])
        #expect(try ids("name%5Bctn%5D=room") == [ops])
        #expect(try ids("name%5Bor%5D=dev,none") == [dev])
        #expect(try ids("created_at%5Bgt%5D=2023-11-14T22:13:25Z") == [dev], "ISO dates as well as unix seconds")
        #expect(try ids("created_at%5Blte%5D=1700000000") == [ops])
    }
}

@Suite("REST users list and look-ups")
struct UserQueriesRESTTests {
    @Test func theListFiltersOnAnyFieldAndOrders() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        _ = try f.call(.put, "/users/\(bob.id).json", form: "user%5Bfull_name%5D=Bob%20Builder&user%5Bfacebook_id%5D=40000", token: bob.token)
        _ = try f.call(.put, "/users/\(cat.id).json", form: "user%5Bfacebook_id%5D=100000", token: cat.token)
        func logins(_ query: String) throws -> [String] {
            let reply = try f.call(.get, "/users.json", query: query, token: ann.token)
            #expect(reply.status == 200, "\(query): \(reply.text)")
            return reply.items.compactMap { ($0["user"] as? [String: Any])?["login"] as? String }
        }
        #expect(try logins("filter%5B%5D=string+login+in+ann,cat") == ["ann", "cat"])
        #expect(try logins("filter%5B%5D=string+full_name+eq+Bob+Builder") == ["bob"], "a value may hold spaces")
        #expect(try logins("filter%5B%5D=number+id+gt+\(ann.id)&order=desc+string+login") == ["cat", "bob"])
        #expect(try logins("filter%5B%5D=number+facebook_id+lt+50000") == ["bob"], "compared as numbers, not text")
        #expect(try logins("filter%5B%5D=number+id+between+\(ann.id),\(bob.id)") == ["ann", "bob"])
        #expect(try logins("filter%5B%5D=date+created_at+ge+2023-11-14T22:13:20Z&filter%5B%5D=string+login+ne+ann") == ["bob", "cat"])
        #expect(try logins("order=desc+number+id&per_page=2&page=1") == ["cat", "bob"])
        // Nothing after the operator filters nothing: QuickBlox's web chat sample lists every user so.
        #expect(try logins("filter%5B%5D=string+full_name+in+&per_page=100") == ["ann", "bob", "cat"])
        #expect(try f.call(.get, "/users.json", query: "filter%5B%5D=string+full_name", token: ann.token).status == 422)
        let badField = try f.call(.get, "/users.json", query: "filter%5B%5D=string+password+eq+x", token: ann.token)
        #expect(badField.status == 422 && badField.text == #"{"errors":{"filter":["has no field 'password' to filter by"]}}"#)
        let badOperator = try f.call(.get, "/users.json", query: "filter%5B%5D=string+login+like+a", token: ann.token)
        #expect(badOperator.status == 422 && badOperator.text == #"{"errors":{"filter":["login unsupported operator 'like'"]}}"#)
        #expect(try f.call(.get, "/users.json", query: "order=sideways+string+login", token: ann.token).status == 422)
    }

    @Test func socialIdsAreKeptAndFound() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        let updated = try f.call(.put, "/users/\(ann.id).json",
                                 json: #"{"user":{"facebook_id":"100000883956766","twitter_id":"23434883956766","twitter_digits_id":"67434863956765"}}"#,
                                 token: ann.token)
        #expect(updated.status == 200)
        let user = try #require(updated.object["user"] as? [String: Any])
        #expect(user["facebook_id"] as? String == "100000883956766" && user["twitter_digits_id"] as? String == "67434863956765")
        for (path, name, value) in [("by_facebook_id", "facebook_id", "100000883956766"), ("by_twitter_id", "twitter_id", "23434883956766"),
                                    ("by_twitter_digits_id", "twitter_digits_id", "67434863956765")] {
            let found = try f.call(.get, "/users/\(path).json", query: "\(name)=\(value)", token: ann.token)
            #expect(found.status == 200 && (found.object["user"] as? [String: Any])?["id"] as? Int == ann.id, "\(path)")
            let unknown = try f.call(.get, "/users/\(path).json", query: "\(name)=1", token: ann.token)
            #expect(unknown.status == 404 && unknown.text == notFoundBody, "\(path)")
        }
        let other = try f.user("bob")
        let fresh = try f.call(.get, "/users/\(other.id).json", token: ann.token).object["user"] as? [String: Any]
        #expect(fresh?["facebook_id"] is NSNull && fresh?["twitter_id"] is NSNull, "unset ids are null, not absent")
        #expect(try f.call(.get, "/users/password/reset.json", query: "email=a@example.com", token: ann.token).status == 200,
                "the JavaScript SDK's path for the reset")
    }
}

@Suite("REST blob listing and changes")
struct BlobListingRESTTests {
    /// The fixture with a storage endpoint that stores nothing and records what it removed.
    final class Storage {
        var removed: [String] = []
    }

    func fixture() throws -> (ChatAPIFixture, Storage) {
        let f = try ChatAPIFixture()
        let storage = Storage()
        f.api.blobStorage = StorageEndpointAccess(
            uploadURL: { id, key, _, _, _ in "http://storage.invalid/blobs/\(id)/upload/?key=\(key)" },
            downloadURL: { key, _, _ in "http://storage.invalid/files/\(key)" },
            isKey: { _ in true }, storedSize: { _ in nil }, remove: { storage.removed.append($0) }, store: { _, _ in .failed },
            maximumUpload: 1 << 20, urlLifetime: 3600)
        return (f, storage)
    }

    @Test func aUserListsTheirOwnBlobsNewestFirstAndPaged() throws {
        let (f, _) = try fixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        for name in ["a.txt", "b.txt", "c.txt"] {
            #expect(try f.call(.post, "/blobs.json", form: "blob%5Bcontent_type%5D=text/plain&blob%5Bname%5D=\(name)", token: ann.token).status == 201)
        }
        _ = try f.call(.post, "/blobs.json", form: "blob%5Bcontent_type%5D=text/plain&blob%5Bname%5D=bobs.txt", token: bob.token)
        let page = try f.call(.get, "/blobs.json", query: "page=1&per_page=2", token: ann.token)
        #expect(page.status == 200)
        #expect(page.object["current_page"] as? Int == 1 && page.object["per_page"] as? Int == 2 && page.object["total_entries"] as? Int == 3)
        #expect(page.items.compactMap { ($0["blob"] as? [String: Any])?["name"] as? String } == ["c.txt", "b.txt"])
        let blob = try #require(page.items.first?["blob"] as? [String: Any])
        #expect(blob["ref_count"] == nil && blob["lifetime"] == nil, "gone from the reference's FileObject")
        #expect(blob["size"] is NSNull && blob["last_read_access_ts"] is NSNull)
    }

    @Test func theOwnerRenamesRetypesAndRestartsABlob() throws {
        let (f, storage) = try fixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let created = try f.call(.post, "/blobs.json", form: "blob%5Bcontent_type%5D=image/jpeg&blob%5Bname%5D=museum.jpg", token: ann.token)
        let blob = try #require(created.object["blob"] as? [String: Any])
        let id = try #require(blob["id"] as? Int), uid = try #require(blob["uid"] as? String)
        let renamed = try f.call(.put, "/blobs/\(id).json", form: "blob%5Bname%5D=GreatPlace&blob%5Bcontent_type%5D=image/png", token: ann.token)
        #expect(renamed.status == 200)
        let changed = try #require(renamed.object["blob"] as? [String: Any])
        #expect(changed["name"] as? String == "GreatPlace" && changed["content_type"] as? String == "image/png")
        #expect(changed["blob_object_access"] == nil && storage.removed.isEmpty)
        let restarted = try f.call(.put, "/blobs/\(id).json", json: #"{"blob":{"new":1}}"#, token: ann.token)
        let access = (restarted.object["blob"] as? [String: Any])?["blob_object_access"] as? [String: Any]
        #expect(access?["params"] as? String == "http://storage.invalid/blobs/\(id)/upload/?key=\(uid)")
        #expect(storage.removed == [uid], "the old file goes")
        #expect(try f.call(.put, "/blobs/\(id).json", form: "blob%5Bname%5D=x", token: bob.token).status == 403)
        #expect(try f.call(.put, "/blobs/999.json", form: "blob%5Bname%5D=x", token: ann.token).status == 404)
        let blank = try f.call(.put, "/blobs/\(id).json", form: "blob%5Bname%5D=", token: ann.token)
        #expect(blank.status == 422 && blank.text == #"{"errors":{"name":["can't be blank"]}}"#)
    }
}
