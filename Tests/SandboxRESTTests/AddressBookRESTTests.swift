// The address book (docs/protocol.md §15), in process over the route table: uploads that
// create, rename, destroy and replace, per device or global; rejected contacts; refusals that
// store nothing; and the users found by phone.
import Foundation
import Testing
import TestSupport
import SandboxREST
import SandboxStorage

@Suite("REST address book")
struct AddressBookRESTTests {
    static let udid = "A337E8A4-80AD-8ABA-9F5D-579EFF6BACAB"

    static func contacts(_ reply: ChatAPIFixture.Reply) -> [[String: String]]? {
        (try? JSONSerialization.jsonObject(with: Data(reply.text.utf8))) as? [[String: String]]
    }

    /// The JavaScript SDK's spec, step by step: the counts it expects, and the books it reads.
    @Test func theSDKsUploadsCreateUpdateAndDestroyInTheirOwnBook() throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        let global = #"[{"name":"Gordie Kann","phone":"1879108395"},{"name":"Wildon Gilleon","phone":"2759108396"},{"name":"Gaston Center","phone":"3759108396"}]"#
        let first = try f.call(.post, "/address_book.json", json: #"{"contacts":\#(global),"force":1}"#, token: ann.token)
        #expect(first.status == 200 && first.text == #"{"created":3,"updated":0,"deleted":0}"#, "\(first.text)")
        let device = try f.call(.post, "/address_book.json", json: """
            {"contacts":[{"name":"Romona Ledes","phone":"4879108395"},{"name":"Chico Yoodall","phone":"5759108396"}],"udid":"\(Self.udid)"}
            """, token: ann.token)
        #expect(device.text == #"{"created":2,"updated":0,"deleted":0}"#)

        let read = try f.call(.get, "/address_book.json", token: ann.token)
        #expect(read.status == 200 && read.text == global, "the global book alone, in upload order, name and phone only")
        #expect(Self.contacts(try f.call(.get, "/address_book.json", query: "udid=\(Self.udid)", token: ann.token))?.map { $0["name"] }
                == ["Romona Ledes", "Chico Yoodall"])

        let renamed = try f.call(.post, "/address_book.json", json: """
            {"contacts":[{"name":"Gordie Kann Updated","phone":"1879108395"},{"name":"Wildon Gilleon Updated","phone":"2759108396"},
             {"name":"Gaston Center Updated","phone":"3759108396"}]}
            """, token: ann.token)
        #expect(renamed.text == #"{"created":0,"updated":3,"deleted":0}"#)
        #expect(Self.contacts(try f.call(.get, "/address_book.json", token: ann.token))?.first
                == ["name": "Gordie Kann Updated", "phone": "1879108395"], "a renamed contact keeps its place")

        // Destroyed by phone, with or without a name, "destroy": 1 a number as the SDK sends it.
        let destroyed = try f.call(.post, "/address_book.json", json: """
            {"contacts":[{"name":"Gordie Kann Updated","phone":"1879108395","destroy":1},{"phone":"2759108396","destroy":1},
             {"name":"Gaston Center Updated","phone":"3759108396","destroy":1}]}
            """, token: ann.token)
        #expect(destroyed.text == #"{"created":0,"updated":0,"deleted":3}"#)
        let empty = try f.call(.get, "/address_book.json", token: ann.token)
        #expect(empty.status == 404 && empty.text == #"{"errors":["Empty address book"]}"#)
        #expect(try f.chat.database.addressBook(userId: ann.id, udid: Self.udid).count == 2, "the device's book is its own")
    }

    @Test func forceReplacesTheWholeBookOfThatDeviceOnly() throws {
        let f = try PushFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        _ = try f.call(.post, "/address_book.json", json: #"{"contacts":[{"name":"A","phone":"1000000001"},{"name":"B","phone":"1000000002"}],"udid":"d1"}"#,
                       token: ann.token)
        _ = try f.call(.post, "/address_book.json", json: #"{"contacts":[{"name":"G","phone":"1000000009"}]}"#, token: ann.token)
        _ = try f.call(.post, "/address_book.json", json: #"{"contacts":[{"name":"Bob's","phone":"1000000001"}],"udid":"d1"}"#, token: bob.token)
        let replaced = try f.call(.post, "/address_book.json", form: "force=1&udid=d1&contacts[0][name]=B2&contacts[0][phone]=1000000002"
                                                                     + "&contacts[1][name]=C&contacts[1][phone]=1000000003", token: ann.token)
        #expect(replaced.text == #"{"created":2,"updated":0,"deleted":2}"#, "\(replaced.text)")
        #expect(try f.chat.database.addressBook(userId: ann.id, udid: "d1") == [AddressBookContact(name: "B2", phone: "1000000002"),
                                                                                  AddressBookContact(name: "C", phone: "1000000003")])
        #expect(try f.chat.database.addressBook(userId: ann.id, udid: "").count == 1, "the global book is untouched")
        #expect(try f.chat.database.addressBook(userId: bob.id, udid: "d1").count == 1, "Bob's book of the same udid is his")
    }

    @Test func aContactTheServiceRejectsIsNamedByItsIndexAndTheOthersApplied() throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        // A form's contacts[][key]: a repeated key starts the next contact.
        let reply = try f.call(.post, "/address_book.json", form: [
            "contacts[][name]=Ok&contacts[][phone]=1000000001",
            "contacts[][name]=Short&contacts[][phone]=12345",
            "contacts[][name]=&contacts[][phone]=1000000002",
            "contacts[][name]=Extra&contacts[][phone]=1000000003&contacts[][email]=x%40example.com",
            "contacts[][name]=Gone&contacts[][phone]=1000000004&contacts[][destroy]=2",
            "contacts[][name]=Fine&contacts[][phone]=1000000005",
        ].joined(separator: "&"), token: ann.token)
        #expect(reply.status == 200)
        #expect(reply.text == #"{"created":2,"updated":0,"deleted":0,"rejected":{"1":["Length of 'phone' field should be min: 10 and max: 15."],"#
                + #""2":["Length of 'name' field should be min: 1 and max: 255."],"3":["Invalid fields set"],"4":["Invalid fields set"]}}"#,
                "\(reply.text)")
        #expect(try f.chat.database.addressBook(userId: ann.id, udid: "").map(\.name) == ["Ok", "Fine"])
    }

    @Test(arguments: [
        (#"{"contacts":[{"name":"A","phone":"1000000001"}],"udid":"\#(String(repeating: "u", count: 65))"}"#,
         #"{"udid":["is too long (maximum is 64 characters)"]}"#),
        (#"{"force":1}"#, #"{"contacts":["can't be blank"]}"#),
        (#"{"contacts":{"name":"A","phone":"1000000001"}}"#,
         #"{"contacts":["must be an array of contacts, each {\"name\", \"phone\"} and \"destroy\": 1 to remove one"]}"#),
        (#"{"contacts":["1000000001"]}"#,
         #"{"contacts":["must be an array of contacts, each {\"name\", \"phone\"} and \"destroy\": 1 to remove one"]}"#),
        (#"{"contacts":[{"name":"A","phone":"1000000001"}],"force":"yes"}"#, #"{"force":["must be 0 or 1 (or true or false)"]}"#),
    ])
    func aBadUploadIsA422NamingTheFieldAndStoresNothing(body: String, errors: String) throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        _ = try f.call(.post, "/address_book.json", json: #"{"contacts":[{"name":"Kept","phone":"1000000009"}]}"#, token: ann.token)
        let reply = try f.call(.post, "/address_book.json", json: body, token: ann.token)
        #expect(reply.status == 422 && reply.text == #"{"errors":\#(errors)}"#, "\(reply.text)")
        #expect(try f.chat.database.addressBook(userId: ann.id, udid: "") == [AddressBookContact(name: "Kept", phone: "1000000009")])
    }

    @Test func registeredUsersAreTheOthersWhosePhoneIsInTheBook() throws {
        let f = try PushFixture()
        let ann = try f.user("ann", phone: "1000000001"), bob = try f.user("bob", phone: "1000000002")
        _ = try f.user("cat", phone: "1000000003")
        #expect(try f.call(.get, "/address_book/registered_users.json", token: ann.token).text == #"{"errors":["Empty address book"]}"#)
        _ = try f.call(.post, "/address_book.json", json: """
            {"contacts":[{"name":"me","phone":"1000000001"},{"name":"Bob","phone":"1000000002"},{"name":"Nobody","phone":"1000000004"}]}
            """, token: ann.token)
        let compact = try f.call(.get, "/address_book/registered_users.json", query: "compact=1", token: ann.token)
        #expect(compact.text == #"{"items":[{"user":{"id":\#(bob.id),"phone":"1000000002"}}]}"#)
        let full = try f.call(.get, "/address_book/registered_users.json", token: ann.token)
        let user = try #require(full.items.first?["user"] as? [String: Any])
        #expect(full.items.count == 1 && user["login"] as? String == "bob" && user["user_tags"] != nil)
        #expect(try f.call(.get, "/address_book/registered_users.json", query: "udid=other", token: ann.token).status == 404)
        #expect(try f.call(.get, "/address_book/registered_users.json", query: "compact=2", token: ann.token).status == 422)
    }
}
