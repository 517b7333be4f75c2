// A dialog's custom data (`data[class_name]`, `data[field]`; docs/protocol.md §5, §13), in process.
import Foundation
import Testing
import TestSupport

@Suite("REST custom objects: a dialog's custom data")
struct DialogCustomDataTests {
    @Test func dialogsCarryTheirDataAndAreFilteredByIt() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let first = try f.createDialog("type=2&name=one&occupants_ids=\(bob.id)&data%5Bclass_name%5D=Advert&data%5Btitle%5D=bingo&data%5Bage%5D=33",
                                       token: ann.token)
        let data = try #require(first["data"] as? [String: Any])
        #expect(data["class_name"] as? String == "Advert" && data["title"] as? String == "bingo" && data["age"] as? Int == 33)
        #expect(isObjectId(data["_id"]))
        let second = try f.createDialog("type=2&name=two&occupants_ids=\(bob.id)&data%5Bclass_name%5D=Advert&data%5Btitle%5D=other&data%5Bage%5D=40",
                                        token: ann.token)
        let plain = try f.createDialog("type=2&name=three&occupants_ids=\(bob.id)", token: ann.token)
        #expect(plain["data"] == nil)
        func names(_ query: String) throws -> [String] {
            try f.call(.get, "/chat/Dialog.json", query: query + "&sort_asc=name", token: bob.token).items.compactMap { $0["name"] as? String }
        }
        #expect(try names("data%5Bclass_name%5D=Advert") == ["one", "two"])
        #expect(try names("data%5Bclass_name%5D=Advert&data%5Btitle%5D=bingo") == ["one"])
        #expect(try names("data%5Bclass_name%5D=Advert&data%5Bage%5D%5Bgt%5D=35") == ["two"])
        #expect(try names("data%5Bclass_name%5D=Other") == [])
        for query in ["data%5Bclass_name%5D=Advert&data%5Bage%5D%5Bgt%5D=old", "data%5Bage%5D%5Bgt%5D=35"] {
            #expect(try f.call(.get, "/chat/Dialog.json", query: query, token: bob.token).status == 422, "\(query)")
        }
        // The JavaScript SDK's update: a JSON `data`; only the owner may change it.
        let updated = try f.call(.put, "/chat/Dialog/\(second["_id"]!).json", json: #"{"data":{"class_name":"Advert","age":41}}"#, token: ann.token)
        #expect((updated.object["data"] as? [String: Any])?["age"] as? Int == 41)
        #expect((updated.object["data"] as? [String: Any])?["title"] as? String == "other")
        #expect(try f.call(.put, "/chat/Dialog/\(second["_id"]!).json", json: #"{"data":{"age":1}}"#, token: bob.token).status == 403)
        // The data is a record of its class, and goes with the dialog, children and all.
        #expect(try f.count("Advert", token: ann.token) == 2)
        _ = try f.record("Notes", #"{"_parent_id":"\#(try recordId(data))","text":"x"}"#, token: ann.token)
        #expect(try f.call(.delete, "/chat/Dialog/\(first["_id"]!).json", query: "force=1", token: ann.token).status == 200)
        #expect(try f.count("Advert", token: ann.token) == 1 && f.count("Notes", token: ann.token) == 0)
        // So when its last occupant leaves it.
        #expect(try f.call(.delete, "/chat/Dialog/\(second["_id"]!).json", token: bob.token).status == 200)
        #expect(try f.count("Advert", token: ann.token) == 1)
        #expect(try f.call(.delete, "/chat/Dialog/\(second["_id"]!).json", token: ann.token).status == 200)
        #expect(try f.count("Advert", token: ann.token) == 0)
    }

    @Test func badDataIsRefusedAndStoresNoDialog() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        _ = try f.createDialog("type=2&name=one&occupants_ids=\(bob.id)&data%5Bclass_name%5D=Advert&data%5Bage%5D=33", token: ann.token)
        for form in ["data%5Bclass_name%5D=Advert&data%5Bage%5D=old", "data%5Bage%5D=3", "data%5Bclass_name%5D=1bad&data%5Bage%5D=3"] {
            let reply = try f.call(.post, "/chat/Dialog.json", form: "type=2&name=two&occupants_ids=\(bob.id)&" + form, token: ann.token)
            #expect(reply.status == 422, "\(form): \(reply.text)")
        }
        #expect(try f.call(.get, "/chat/Dialog.json", query: "count=1", token: ann.token).text == #"{"items_count":1}"#)
    }
}
