// Dialog and message endpoints (docs/protocol.md §5–6), in process: the route table over an
// in-memory database, with a clock the tests move.
import Foundation
import Testing
import TestSupport
import SandboxHTTP
import SandboxREST
import SandboxStorage

/// The REST route table over an in-memory database; users and sessions made directly.
final class ChatAPIFixture {
    static let applicationId = 7
    let clock = TestClock(1_700_000_000)
    let database: SandboxDatabase
    let api: SandboxAPI
    let router: RESTRouter

    init() throws {
        database = try SandboxDatabase(path: nil, tokenTTL: 7200)
        let clock = self.clock
        api = SandboxAPI(database: database,
                         credentials: ApplicationCredentials(applicationId: Self.applicationId, authKey: "k", authSecret: "s"),
                         chatDomain: "localhost", now: { clock.now })
        router = api.makeRouter()
    }

    /// A new user and a user session of theirs.
    func user(_ login: String) throws -> (id: Int, token: String) {
        let user = try database.insertUser(NewUser(login: login, password: "password-\(login)"))
        let session = try database.createSession(applicationId: Self.applicationId, userId: user.id, nonce: 1, timestamp: 1)
        return (user.id, session.token)
    }

    struct Reply {
        var status: Int
        var text: String
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var items: [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }
        var errors: Any? { object["errors"] }
    }

    /// One request: `query` in the URL, `form` or `json` as the body.
    func call(_ method: HTTPRequest.Method, _ path: String, query: String? = nil, form: String? = nil, json: String? = nil,
              token: String) throws -> Reply {
        var headers = ["QB-Token": token]
        var body: [UInt8] = []
        if let form { headers["Content-Type"] = "application/x-www-form-urlencoded"; body = Array(form.utf8) }
        if let json { headers["Content-Type"] = "application/json"; body = Array(json.utf8) }
        let request = try RESTRequest(method: method, path: path, headers: headers, query: query, body: body)
        let response = router.handle(request)
        return Reply(status: response.status, text: response.body?.serialized ?? "")
    }

    func createDialog(_ form: String, token: String) throws -> [String: Any] {
        let reply = try call(.post, "/chat/Dialog.json", form: form, token: token)
        guard reply.status == 201 || reply.status == 200 else { throw TestSupportError("create dialog: \(reply.status) \(reply.text)") }
        return reply.object
    }

    func send(_ dialogId: String, _ text: String, token: String, extra: String = "") throws -> [String: Any] {
        let form = "chat_dialog_id=\(dialogId)&message=\(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text)" + extra
        let reply = try call(.post, "/chat/Message.json", form: form, token: token)
        guard reply.status == 201 else { throw TestSupportError("send: \(reply.status) \(reply.text)") }
        return reply.object
    }
}

let forbiddenBody = #"{"errors":["You don't have appropriate permissions to perform this operation"]}"#
let notFoundBody = #"{"errors":["The resource wasn't found"]}"#

func isObjectId(_ value: Any?) -> Bool {
    guard let s = value as? String else { return false }
    return s.count == 24 && s.allSatisfy(\.isHexDigit)
}

@Suite("REST dialogs")
struct ChatDialogRESTTests {
    @Test func privateDialogIsCreatedOnceAndReused() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let created = try f.call(.post, "/chat/Dialog.json", form: "type=3&occupants_ids=\(bob.id)", token: ann.token)
        #expect(created.status == 201)
        let dialog = created.object
        #expect(isObjectId(dialog["_id"]))
        #expect(dialog["type"] as? Int == 3)
        #expect(dialog["user_id"] as? Int == ann.id)
        #expect(dialog["occupants_ids"] as? [Int] == [ann.id, bob.id])
        #expect(dialog["xmpp_room_jid"] is NSNull)
        #expect(dialog["unread_messages_count"] as? Int == 0)
        #expect(dialog["last_message"] is NSNull && dialog["last_message_date_sent"] is NSNull)
        #expect((dialog["created_at"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
        // Bob asking for the same pair (JSON array form) gets the same dialog back.
        let again = try f.call(.post, "/chat/Dialog.json", json: #"{"type":3,"occupants_ids":[\#(ann.id)]}"#, token: bob.token)
        #expect(again.status == 200)
        #expect(again.object["_id"] as? String == dialog["_id"] as? String)
    }

    /// A private dialog is called after the other occupant, for each of the two (their full name,
    /// else login): never null, as QuickBlox's web sample reads a person's name from it. A name or
    /// photo given for one is ignored, as the hosted service ignores them.
    @Test func aPrivateDialogIsNamedAfterTheOtherOccupant() throws {
        let f = try ChatAPIFixture()
        var profile = UserProfile()
        profile.fullName = "Ann Example"
        let annUser = try f.database.insertUser(NewUser(login: "ann", password: "password-ann", profile: profile))
        let ann = (id: annUser.id, token: try f.database.createSession(applicationId: ChatAPIFixture.applicationId, userId: annUser.id,
                                                                       nonce: 1, timestamp: 1).token)
        let bob = try f.user("bob")
        let created = try f.createDialog("type=3&occupants_ids=\(bob.id)&name=Chosen&photo=123", token: ann.token)
        #expect(created["name"] as? String == "bob", "ann sees bob, who has no full name, by his login")
        #expect(created["photo"] is NSNull)
        let id = try #require(created["_id"] as? String)
        let seenByBob = try f.call(.get, "/chat/Dialog.json", query: "_id=\(id)", token: bob.token).items.first
        #expect(seenByBob?["name"] as? String == "Ann Example")
        let seenByAnn = try f.call(.get, "/chat/Dialog.json", token: ann.token).items.first
        #expect(seenByAnn?["name"] as? String == "bob")
        // A new full name shows at the next read.
        #expect(try f.call(.put, "/users/\(bob.id).json", form: "user[full_name]=Bob%20B", token: bob.token).status == 200)
        #expect(try f.call(.get, "/chat/Dialog.json", token: ann.token).items.first?["name"] as? String == "Bob B")
        // A group keeps the name it was given.
        let group = try f.createDialog("type=2&occupants_ids=\(bob.id)&name=team", token: ann.token)
        #expect(group["name"] as? String == "team")
    }

    @Test(arguments: ["occupants_ids=%@", "occupants_ids=%@&occupants_ids=", "json"])
    func groupAcceptsEveryOccupantsForm(style: String) throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let reply: ChatAPIFixture.Reply
        if style == "json" {
            reply = try f.call(.post, "/chat/Dialog.json", json: #"{"type":2,"name":"ops","occupants_ids":"\#(bob.id), \#(cat.id)"}"#, token: ann.token)
        } else {
            let list = "\(bob.id),\(cat.id)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            reply = try f.call(.post, "/chat/Dialog.json", form: "type=2&name=ops&" + style.replacingOccurrences(of: "%@", with: list), token: ann.token)
        }
        #expect(reply.status == 201)
        let id = try #require(reply.object["_id"] as? String)
        #expect(reply.object["occupants_ids"] as? [Int] == [ann.id, bob.id, cat.id])
        #expect(reply.object["name"] as? String == "ops")
        #expect(reply.object["xmpp_room_jid"] as? String == "7_\(id)@muc.localhost")
    }

    @Test func invalidCreationsAre422() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let noName = try f.call(.post, "/chat/Dialog.json", form: "type=2&occupants_ids=\(bob.id)", token: ann.token)
        #expect(noName.status == 422 && noName.text.contains("\"name\""))
        let twoPeers = try f.call(.post, "/chat/Dialog.json", form: "type=3&occupants_ids=\(bob.id),\(cat.id)", token: ann.token)
        #expect(twoPeers.status == 422 && twoPeers.text.contains("occupants_ids"))
        let unknown = try f.call(.post, "/chat/Dialog.json", form: "type=3&occupants_ids=999", token: ann.token)
        #expect(unknown.status == 422 && unknown.text.contains("occupants_ids"))
    }

    @Test func listingWithAnApplicationSessionNeedsAUser() throws {
        let f = try ChatAPIFixture()
        let session = try f.database.createSession(applicationId: 7, userId: 0, nonce: 1, timestamp: 1)
        for path in ["/chat/Dialog.json", "/chat/Message.json", "/chat/Message/unread.json"] {
            let reply = try f.call(.get, path, token: session.token)
            #expect(reply.status == 422)
            #expect(reply.text == #"{"errors":{"base":["Forbidden. Need user."]}}"#)
        }
    }

    @Test func listingFiltersSortsAndPages() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        f.clock.now = 100
        let direct = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let ops = try f.createDialog("type=2&name=ops&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let idle = try f.createDialog("type=2&name=idle&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        f.clock.now = 1000
        _ = try f.send(ops, "first", token: bob.token)
        f.clock.now = 2000
        _ = try f.send(direct, "second", token: bob.token)

        func ids(_ query: String) throws -> (ids: [String], reply: ChatAPIFixture.Reply) {
            let reply = try f.call(.get, "/chat/Dialog.json", query: query, token: ann.token)
            #expect(reply.status == 200, "\(query): \(reply.text)")
            return (reply.items.compactMap { $0["_id"] as? String }, reply)
        }
        let all = try ids("limit=100&skip=0&sort_desc=last_message_date_sent")
        #expect(all.ids == [direct, ops, idle])
        #expect(all.reply.object["total_entries"] as? Int == 3)
        #expect(all.reply.object["limit"] as? Int == 100 && all.reply.object["skip"] as? Int == 0)
        #expect(all.reply.items.first?["last_message"] as? String == "second")
        #expect(all.reply.items.first?["last_message_date_sent"] as? Int == 2000)
        #expect(all.reply.items.first?["last_message_user_id"] as? Int == bob.id)
        #expect(all.reply.items.first?["unread_messages_count"] as? Int == 1)
        #expect(try ids("").ids == [direct, ops, idle])
        #expect(try ids("sort_asc=last_message_date_sent").ids == [idle, ops, direct])
        #expect(try ids("type[in]=2").ids == [ops, idle])
        #expect(try ids("type%5Bin%5D=2%2C3&sort_desc=last_message_date_sent").ids == [direct, ops, idle])
        #expect(try ids("type=3").ids == [direct])
        #expect(try ids("updated_at[gt]=1500").ids == [direct])
        #expect(try ids("updated_at%5Bgt%5D=500").ids == [direct, ops])
        let page = try ids("limit=1&skip=1")
        #expect(page.ids == [ops])
        #expect(page.reply.object["total_entries"] as? Int == 3)
        #expect(page.reply.object["limit"] as? Int == 1 && page.reply.object["skip"] as? Int == 1)
        // Someone in none of them sees nothing.
        let outsider = try f.call(.get, "/chat/Dialog.json", token: cat.token)
        #expect(outsider.object["total_entries"] as? Int == 0 && outsider.items.isEmpty)
    }

    @Test func updateRenamesPushesAndPulls() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat"), dan = try f.user("dan")
        let id = try f.createDialog("type=2&name=ops&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let pushed = try f.call(.put, "/chat/Dialog/\(id).json", form: "name=ops2&push_all%5Boccupants_ids%5D%5B%5D=\(cat.id)", token: ann.token)
        #expect(pushed.status == 200)
        #expect(pushed.object["name"] as? String == "ops2")
        #expect(pushed.object["occupants_ids"] as? [Int] == [ann.id, bob.id, cat.id])
        let pulled = try f.call(.put, "/chat/Dialog/\(id).json", json: #"{"pull_all":{"occupants_ids":[\#(bob.id)]}}"#, token: ann.token)
        #expect(pulled.status == 200)
        #expect(pulled.object["occupants_ids"] as? [Int] == [ann.id, cat.id])
        for token in [dan.token, bob.token] {
            let refused = try f.call(.put, "/chat/Dialog/\(id).json", form: "name=mine", token: token)
            #expect(refused.status == 403 && refused.text == forbiddenBody)
        }
        let notOwner = try f.call(.put, "/chat/Dialog/\(id).json", form: "pull_all[occupants_ids][]=\(ann.id)", token: cat.token)
        #expect(notOwner.status == 403)
        let unknown = try f.call(.put, "/chat/Dialog/0123456789abcdef01234567.json", form: "name=x", token: ann.token)
        #expect(unknown.status == 404 && unknown.text == notFoundBody)
    }

    @Test func deleteLeavesOrForceDeletes() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let shared = try f.createDialog("type=2&name=a&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let doomed = try f.createDialog("type=2&name=b&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        _ = try f.send(doomed, "bye", token: bob.token)
        // Bob (not the owner) leaves; Ann keeps the dialog.
        let left = try f.call(.delete, "/chat/Dialog/\(shared).json", token: bob.token)
        #expect(left.status == 200 && left.text.isEmpty)
        #expect(try f.call(.get, "/chat/Dialog.json", token: bob.token).items.compactMap { $0["_id"] as? String } == [doomed])
        let stays = try f.call(.get, "/chat/Dialog.json", query: "_id=\(shared)", token: ann.token)
        #expect(stays.items.first?["occupants_ids"] as? [Int] == [ann.id])
        // A stranger may not.
        let stranger = try f.call(.delete, "/chat/Dialog/\(doomed).json", token: cat.token)
        #expect(stranger.status == 403 && stranger.text == forbiddenBody)
        // The owner with force=1 deletes it for everyone, messages included.
        let forced = try f.call(.delete, "/chat/Dialog/\(doomed).json", query: "force=1", token: ann.token)
        #expect(forced.status == 200)
        #expect(try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(doomed)", token: bob.token).status == 404)
        #expect(try f.call(.delete, "/chat/Dialog/\(doomed).json", token: ann.token).status == 404)
        let several = try f.call(.delete, "/chat/Dialog/\(shared),0123456789abcdef01234567.json", token: ann.token)
        #expect(several.status == 200)
        #expect(several.text == #"{"SuccessfullyDeleted":{"ids":["\#(shared)"]},"NotFound":{"ids":["0123456789abcdef01234567"]},"WrongPermissions":{"ids":[]}}"#)
    }
}

@Suite("REST messages")
struct ChatMessageRESTTests {
    @Test func sentMessageHasEveryProtocolField() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let json = #"{"chat_dialog_id":"\#(dialog)","message":"hi","markable":1,"send_to_chat":1,"color":"red","attachments":[{"type":"image","id":"uid1","name":"a.png","size":12}]}"#
        let reply = try f.call(.post, "/chat/Message.json", json: json, token: ann.token)
        #expect(reply.status == 201)
        let m = reply.object
        #expect(isObjectId(m["_id"]))
        #expect(m["chat_dialog_id"] as? String == dialog)
        #expect(m["message"] as? String == "hi")
        #expect(m["sender_id"] as? Int == ann.id && m["recipient_id"] as? Int == bob.id)
        #expect(m["date_sent"] as? Int == Int(f.clock.now))
        #expect(m["read_ids"] as? [Int] == [ann.id] && m["delivered_ids"] as? [Int] == [ann.id])
        #expect(m["color"] as? String == "red")
        #expect(m["markable"] as? Int == 1)
        #expect(m["send_to_chat"] == nil)
        let attachment = try #require((m["attachments"] as? [[String: Any]])?.first)
        #expect(attachment["type"] as? String == "image" && attachment["id"] as? String == "uid1" && attachment["size"] as? Int == 12)
        for key in ["created_at", "updated_at"] { #expect(m[key] is String) }
        // History returns the same object.
        let history = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: ann.token)
        #expect(history.items.first?["color"] as? String == "red")
        #expect((history.items.first?["attachments"] as? [[String: Any]])?.first?["name"] as? String == "a.png")
        // In a group, recipient_id is 0.
        let group = try f.createDialog("type=2&name=g&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        #expect(try f.send(group, "all", token: ann.token)["recipient_id"] as? Int == 0)
    }

    /// docs/protocol.md §8: `attachments` as a JSON array, a JSON object keyed "0", "1"…
    /// or form fields `attachments[0][type]`; always answered as an array in index order.
    @Test func attachmentsInEveryFormAndAttachmentsAlone() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let keyed = #"{"chat_dialog_id":"\#(dialog)","attachments":{"10":{"id":"k"},"2":{"id":"c","size":"7"},"0":{"id":"a","type":"image"},"1":{"id":"b"}}}"#
        let fromJSON = try f.call(.post, "/chat/Message.json", json: keyed, token: ann.token)
        #expect(fromJSON.status == 201, "an attachment alone needs no text")
        #expect((fromJSON.object["attachments"] as? [[String: Any]])?.map { $0["id"] as? String } == ["a", "b", "c", "k"])
        #expect((fromJSON.object["attachments"] as? [[String: Any]])?[2]["size"] as? Int == 7)
        let form = "chat_dialog_id=\(dialog)&message=%5Battachment%5D&attachments%5B1%5D%5Bid%5D=y&attachments%5B0%5D%5Bid%5D=x"
            + "&attachments%5B0%5D%5Bcontent-type%5D=image%2Fpng"
        let fromForm = try f.call(.post, "/chat/Message.json", form: form, token: ann.token)
        #expect(fromForm.status == 201)
        let items = try #require(fromForm.object["attachments"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["x", "y"] && items.first?["content-type"] as? String == "image/png")
        let blank = try f.call(.post, "/chat/Message.json", json: #"{"chat_dialog_id":"\#(dialog)","attachments":[]}"#, token: ann.token)
        #expect(blank.status == 422, "no text and no attachment")
    }

    @Test func historyKeepsSendOrderWithinASecondAndPages() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let sent = try (0..<6).map { try f.send(dialog, "m\($0)", token: $0 % 2 == 0 ? ann.token : bob.token)["_id"] as! String }
        func bodies(_ query: String) throws -> [String] {
            let reply = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&mark_as_read=0&" + query, token: ann.token)
            #expect(reply.status == 200)
            #expect(reply.object["total_entries"] == nil)
            return reply.items.compactMap { $0["message"] as? String }
        }
        #expect(try bodies("") == ["m0", "m1", "m2", "m3", "m4", "m5"])
        #expect(try bodies("sort_asc=date_sent") == ["m0", "m1", "m2", "m3", "m4", "m5"])
        #expect(try bodies("sort_desc=date_sent") == ["m5", "m4", "m3", "m2", "m1", "m0"])
        #expect(try bodies("sort_desc=date_sent&limit=2&skip=1") == ["m4", "m3"])
        let page = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&limit=2&skip=4", token: ann.token)
        #expect(page.object["limit"] as? Int == 2 && page.object["skip"] as? Int == 4)
        #expect(page.items.compactMap { $0["_id"] as? String } == Array(sent[4...]))
    }

    @Test func dateSentFilters() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        for t in [100.0, 200, 300] {
            f.clock.now = t
            _ = try f.send(dialog, "at\(Int(t))", token: ann.token)
        }
        func bodies(_ filter: String) throws -> [String] {
            try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&" + filter, token: ann.token)
                .items.compactMap { $0["message"] as? String }
        }
        #expect(try bodies("date_sent[lt]=300") == ["at100", "at200"])
        #expect(try bodies("date_sent%5Bgt%5D=100") == ["at200", "at300"])
        #expect(try bodies("date_sent[lte]=200&date_sent[gte]=200") == ["at200"])
        #expect(try bodies("sort_desc=date_sent&date_sent[lt]=300&limit=1") == ["at200"])
        // Numbers beyond Int compare as reals instead of trapping.
        #expect(try bodies("date_sent[lt]=1e300") == ["at100", "at200", "at300"])
        #expect(try bodies("date_sent[gt]=-1e300&date_sent[lt]=150.5") == ["at100"])
        #expect(try bodies("date_sent[gt]=nan").isEmpty)
    }

    @Test func historyMarksReadUnlessMarkAsReadIsZero() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        for i in 0..<3 { _ = try f.send(dialog, "m\(i)", token: ann.token) }
        func unread() throws -> [String: Any] { try f.call(.get, "/chat/Message/unread.json", token: bob.token).object }
        #expect(try unread()["total"] as? Int == 3)
        #expect(try unread()[dialog] as? Int == 3)
        #expect(try f.call(.get, "/chat/Dialog.json", token: bob.token).items.first?["unread_messages_count"] as? Int == 3)
        // Looking without marking changes nothing.
        let peek = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&mark_as_read=0", token: bob.token)
        #expect(peek.items.allSatisfy { $0["read_ids"] as? [Int] == [ann.id] })
        #expect(try unread()["total"] as? Int == 3)
        // Reading one page marks exactly that page.
        let first = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&limit=2", token: bob.token)
        #expect(first.items.allSatisfy { ($0["read_ids"] as? [Int])?.contains(bob.id) == true })
        #expect(try unread()["total"] as? Int == 1)
        // The sender's own messages are never unread for them.
        #expect(try f.call(.get, "/chat/Message/unread.json", token: ann.token).object["total"] as? Int == 0)
    }

    @Test func putReadMarksTheNamedMessagesAndUnreadFiltersByDialog() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let group = try f.createDialog("type=2&name=g&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let ids = try (0..<3).map { try f.send(dialog, "m\($0)", token: ann.token)["_id"] as! String }
        _ = try f.send(group, "g", token: ann.token)
        let put = try f.call(.put, "/chat/Message/\(ids[0]),\(ids[1]).json", form: "read=1&chat_dialog_id=\(dialog)", token: bob.token)
        #expect(put.status == 200 && put.text.isEmpty)
        let all = try f.call(.get, "/chat/Message/unread.json", token: bob.token)
        #expect(all.text == #"{"total":2,"\#(dialog)":1,"\#(group)":1}"#)
        let one = try f.call(.get, "/chat/Message/unread.json", query: "chat_dialog_ids=\(group)", token: bob.token)
        #expect(one.text == #"{"total":1,"\#(group)":1}"#)
        #expect(try f.call(.put, "/chat/Message/0123456789abcdef01234567.json", form: "read=1", token: bob.token).status == 404)
    }

    @Test func nonOccupantsAre403AndUnknownDialogs404() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), eve = try f.user("eve")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let message = try f.send(dialog, "private", token: ann.token)["_id"] as! String
        let read = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: eve.token)
        #expect(read.status == 403 && read.text == forbiddenBody)
        let write = try f.call(.post, "/chat/Message.json", form: "chat_dialog_id=\(dialog)&message=x", token: eve.token)
        #expect(write.status == 403 && write.text == forbiddenBody)
        let mark = try f.call(.put, "/chat/Message/\(message).json", form: "read=1", token: eve.token)
        #expect(mark.status == 403)
        let unknown = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=0123456789abcdef01234567", token: ann.token)
        #expect(unknown.status == 404 && unknown.text == notFoundBody)
        let unknownPost = try f.call(.post, "/chat/Message.json", form: "chat_dialog_id=0123456789abcdef01234567&message=x", token: ann.token)
        #expect(unknownPost.status == 404)
        // Nothing leaked or was stored.
        #expect(try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: ann.token).items.count == 1)
    }

    @Test func deleteAnswersWhatWasDeletedAndWhatWasNot() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), eve = try f.user("eve")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let first = try f.send(dialog, "keep", token: ann.token)["_id"] as! String
        let second = try f.send(dialog, "drop", token: ann.token)["_id"] as! String
        let strangers = try f.call(.delete, "/chat/Message/\(second).json", token: eve.token)
        #expect(strangers.text == #"{"SuccessfullyDeleted":{"ids":[]},"NotFound":{"ids":["\#(second)"]},"WrongPermissions":{"ids":[]}}"#)
        let reply = try f.call(.delete, "/chat/Message/\(second),0123456789abcdef01234567.json", query: "force=1", token: ann.token)
        #expect(reply.status == 200)
        #expect(reply.text == #"{"SuccessfullyDeleted":{"ids":["\#(second)"]},"NotFound":{"ids":["0123456789abcdef01234567"]},"WrongPermissions":{"ids":[]}}"#)
        let history = try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: ann.token)
        #expect(history.items.compactMap { $0["_id"] as? String } == [first])
        let listed = try f.call(.get, "/chat/Dialog.json", token: ann.token).items.first
        #expect(listed?["last_message_id"] as? String == first && listed?["last_message"] as? String == "keep")
    }

    @Test func bodiesOverTheLimitAre422() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let limit = ChatStore.maxMessageBytes
        #expect(limit == 65536)
        let fits = try f.call(.post, "/chat/Message.json", form: "chat_dialog_id=\(dialog)&message=" + String(repeating: "a", count: limit), token: ann.token)
        #expect(fits.status == 201)
        let over = try f.call(.post, "/chat/Message.json", form: "chat_dialog_id=\(dialog)&message=" + String(repeating: "a", count: limit + 1), token: ann.token)
        #expect(over.status == 422)
        #expect(over.text == #"{"errors":{"message":["is too long (maximum is 65536 bytes)"]}}"#)
        let empty = try f.call(.post, "/chat/Message.json", form: "chat_dialog_id=\(dialog)&message=", token: ann.token)
        #expect(empty.status == 422)
        #expect(try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)", token: ann.token).items.count == 1)
    }
}
