// A dialog's notification settings (docs/protocol.md §5, "Notification settings"): per user
// and dialog, enabled unless muted; in process over the route table.
import Foundation
import Testing
import SandboxHTTP
import SandboxREST
import SandboxStorage

@Suite("REST notification settings")
struct NotificationSettingsRESTTests {
    static func enabled(_ reply: ChatAPIFixture.Reply) -> Int? {
        (reply.object["notifications"] as? [String: Any])?["enabled"] as? Int
    }

    @Test func aDialogNotifiesUntilItsUserMutesItAndOnlyForThem() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let id = try f.createDialog("type=2&name=ops&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let path = "/chat/Dialog/\(id)/notifications.json"
        let fresh = try f.call(.get, path, token: ann.token)
        #expect(fresh.status == 200 && fresh.text == #"{"notifications":{"enabled":1}}"#)
        let muted = try f.call(.put, path, form: "enabled=0", token: ann.token)
        #expect(muted.status == 200 && muted.text == #"{"notifications":{"enabled":0}}"#)
        #expect(Self.enabled(try f.call(.get, path, token: ann.token)) == 0)
        #expect(Self.enabled(try f.call(.get, path, token: bob.token)) == 1, "Bob's setting is his own")
        // Muting twice is muting; a JSON body says the same as a form.
        #expect(Self.enabled(try f.call(.put, path, json: #"{"enabled":0}"#, token: ann.token)) == 0)
        #expect(Self.enabled(try f.call(.put, path, json: #"{"enabled":1}"#, token: ann.token)) == 1)
        #expect(Self.enabled(try f.call(.get, path, token: ann.token)) == 1)
    }

    @Test func theSettingIsKeptPerDialog() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let one = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let two = try f.createDialog("type=2&name=ops&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        _ = try f.call(.put, "/chat/Dialog/\(one)/notifications.json", form: "enabled=0", token: ann.token)
        #expect(Self.enabled(try f.call(.get, "/chat/Dialog/\(one)/notifications.json", token: ann.token)) == 0)
        #expect(Self.enabled(try f.call(.get, "/chat/Dialog/\(two)/notifications.json", token: ann.token)) == 1)
        #expect(try f.api.chat.notificationsEnabled(dialogId: one, userId: ann.id) == false)
    }

    @Test func unknownForeignAndMissingDialogsAreRefusedAsElsewhere() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        let id = try f.createDialog("type=2&name=ops&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let unknown = "/chat/Dialog/0123456789abcdef01234567/notifications.json"
        for method: HTTPRequest.Method in [.get, .put] {
            let reply = try f.call(method, unknown, form: method == .put ? "enabled=0" : nil, token: ann.token)
            #expect(reply.status == 404 && reply.text == notFoundBody, "\(method) of an unknown dialog")
            let foreign = try f.call(method, "/chat/Dialog/\(id)/notifications.json", form: method == .put ? "enabled=0" : nil,
                                     token: cat.token)
            #expect(foreign.status == 403 && foreign.text == forbiddenBody, "\(method) of a dialog Cat is not in")
        }
        #expect(try f.api.chat.notificationsEnabled(dialogId: id, userId: cat.id), "Cat's refused PUT stored nothing")
        let noToken = try RESTRequest(method: .get, path: "/chat/Dialog/\(id)/notifications.json", headers: [:], query: nil, body: [])
        #expect(f.router.handle(noToken).status == 401)
    }

    @Test(arguments: ["", "enabled=", "enabled=2", "enabled=true", "enabled=off", "enabled=-1"])
    func anEnabledThatIsNot0Or1Is422(form: String) throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let id = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let path = "/chat/Dialog/\(id)/notifications.json"
        _ = try f.call(.put, path, form: "enabled=0", token: ann.token)
        let reply = try f.call(.put, path, form: form.isEmpty ? nil : form, token: ann.token)
        #expect(reply.status == 422)
        let errors = try #require(reply.errors as? [String: [String]])
        #expect(errors["enabled"]?.isEmpty == false)
        #expect(Self.enabled(try f.call(.get, path, token: ann.token)) == 0, "the refused PUT changed nothing")
    }

    @Test func aDeletedDialogTakesItsSettingsAlong() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let id = try f.createDialog("type=2&name=ops&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        _ = try f.call(.put, "/chat/Dialog/\(id)/notifications.json", form: "enabled=0", token: bob.token)
        #expect(try f.call(.delete, "/chat/Dialog/\(id).json", query: "force=1", token: ann.token).status == 200)
        #expect(try f.api.chat.notificationsEnabled(dialogId: id, userId: bob.id), "Bob's row went with the dialog")
    }
}
