// The Custom Objects API (docs/protocol.md §13), in process: the route table over an in-memory
// database, as ChatAPIFixture drives it.
import Foundation
import Testing
import TestSupport
import SandboxHTTP
@testable import SandboxREST
import SandboxStorage

extension ChatAPIFixture {
    /// A record made with a JSON body; its fields as answered.
    func record(_ cls: String, _ json: String, token: String) throws -> [String: Any] {
        let reply = try call(.post, "/data/\(cls).json", json: json, token: token)
        guard reply.status == 201 else { throw TestSupportError("create \(cls): \(reply.status) \(reply.text)") }
        return reply.object
    }

    /// The `_id`s a list of `cls` answers for `query`, in order.
    func listedIds(_ cls: String, _ query: String, token: String) throws -> [String] {
        let reply = try call(.get, "/data/\(cls).json", query: query, token: token)
        guard reply.status == 200 else { throw TestSupportError("list \(cls)?\(query): \(reply.status) \(reply.text)") }
        return reply.items.compactMap { $0["_id"] as? String }
    }

    /// How many records of `cls` the caller can read.
    func count(_ cls: String, token: String) throws -> Int {
        try call(.get, "/data/\(cls).json", query: "count=1", token: token).object["items_count"] as? Int ?? -1
    }

    /// A multipart request, as the SDKs upload a file field.
    func multipart(_ method: HTTPRequest.Method, _ path: String, fields: [(String, String)], file: (name: String, type: String, bytes: [UInt8])?,
                   token: String) throws -> Reply {
        let boundary = "----fixture-boundary-7MA4YWxk"
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let file {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.name)\"\r\nContent-Type: \(file.type)\r\n\r\n".utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        let request = try RESTRequest(method: method, path: path, headers: ["QB-Token": token, "Content-Type": "multipart/form-data; boundary=\(boundary)"],
                                      query: nil, body: body)
        let response = router.handle(request)
        return Reply(status: response.status, text: response.body?.serialized ?? "")
    }
}

/// A record's `_id`, which must be there.
func recordId(_ record: [String: Any]) throws -> String {
    try #require(record["_id"] as? String, "no _id in \(record)")
}

@Suite("REST custom objects: records and their classes")
struct CustomObjectRecordTests {
    @Test func aRecordIsMadeFromJSONWithTheServicesKeysAndDefaultPermissions() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        let car = try f.record("cars", #"{"make":"BMW","model":"M5","value":100,"damaged":true,"price":12.5,"tags":["a","b"]}"#, token: ann.token)
        #expect(isObjectId(car["_id"]))
        #expect(car["make"] as? String == "BMW" && car["value"] as? Int == 100 && car["damaged"] as? Bool == true)
        #expect(car["price"] as? Double == 12.5 && car["tags"] as? [String] == ["a", "b"])
        #expect(car["user_id"] as? Int == ann.id && car["_parent_id"] is NSNull)
        #expect(car["created_at"] as? Int == 1_700_000_000 && car["updated_at"] as? Int == 1_700_000_000)
        let permissions = try #require(car["permissions"] as? [String: [String: Any]])
        #expect(permissions["read"]?["access"] as? String == "open")
        #expect(permissions["update"]?["access"] as? String == "owner" && permissions["delete"]?["access"] as? String == "owner")
        // Keys in the service's order: alphabetical, permissions last.
        let text = try f.call(.get, "/data/cars/\(car["_id"]!).json", token: ann.token).text
        #expect(text.hasPrefix(#"{"class_name":"cars","skip":0,"limit":1,"items":[{"_id":"#))
        #expect(text.contains(#""_parent_id":null,"created_at":1700000000,"damaged":true,"make":"BMW","model":"M5","price":12.5"#))
        #expect(text.contains(#""value":100,"permissions":{"read":{"access":"open"},"update":{"access":"owner"},"delete":{"access":"owner"}}}]}"#))
    }

    @Test func formTextIsTypedByItsLookAndLaterValuesAreCastToTheClass() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        let first = try f.call(.post, "/data/Score.json", form: "score=10&ratio=0.5&expert=true&name=Ann&when=2019-09-21T21:21:00Z&levels%5B%5D=1&levels%5B%5D=2",
                               token: ann.token)
        #expect(first.status == 201)
        #expect(first.object["score"] as? Int == 10 && first.object["ratio"] as? Double == 0.5 && first.object["expert"] as? Bool == true)
        #expect(first.object["when"] as? String == "2019-09-21T21:21:00Z" && first.object["levels"] as? [Int] == [1, 2])
        // The class is typed now: JSON text is cast ("0.12" a Float), dates take the service's
        // example form, an array takes `a,b`, and a field not given is null.
        let second = try f.record("Score", #"{"score":"7","ratio":"0.12","expert":"false","when":"2019-09-21 21:21:00","levels":"3,4"}"#, token: ann.token)
        #expect(second["score"] as? Int == 7 && second["ratio"] as? Double == 0.12 && second["expert"] as? Bool == false)
        #expect(second["when"] as? String == "2019-09-21T21:21:00Z" && second["levels"] as? [Int] == [3, 4])
        #expect(second["name"] is NSNull)
    }

    @Test func aValueTheClassCannotTakeIs422OnItsFieldAndStoresNothing() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        _ = try f.record("cars", #"{"value":100}"#, token: ann.token)
        for (body, field) in [(#"{"value":"abc"}"#, "value"), (#"{"value":1,"spec":{"a":1}}"#, "spec"), (#"{"bad-name":1}"#, "bad-name"),
                              (#"{"count":1}"#, "count"), (#"{"value":1,"permissions":{"read":{"access":"everyone"}}}"#, "permissions[read]")] {
            let reply = try f.call(.post, "/data/cars.json", json: body, token: ann.token)
            #expect(reply.status == 422, "\(body)")
            #expect((reply.errors as? [String: Any])?[field] != nil, "\(body): \(reply.text)")
        }
        #expect(try f.call(.post, "/data/cars.json", form: "value=abc&extra=1", token: ann.token).status == 422)
        #expect(try f.count("cars", token: ann.token) == 1)
        // The refused requests made no field: a later `extra` may still be text.
        #expect(try f.record("cars", #"{"extra":"x","value":2}"#, token: ann.token)["extra"] as? String == "x")
        #expect(try f.call(.post, "/data/9cars.json", json: "{}", token: ann.token).status == 422)
    }

    @Test func aRecordTooLargeIs413AndAnApplicationSessionCannotWrite() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        let big = String(repeating: "x", count: CustomObjectStore.maximumFieldsSize)
        let reply = try f.call(.post, "/data/notes.json", json: #"{"text":"\#(big)"}"#, token: ann.token)
        #expect(reply.status == 413)
        #expect(try f.count("notes", token: ann.token) == 0)
        let app = try f.database.createSession(applicationId: ChatAPIFixture.applicationId, userId: 0, nonce: 2, timestamp: 2)
        #expect(try f.call(.post, "/data/notes.json", json: #"{"text":"x"}"#, token: app.token).status == 422)
        #expect(try f.call(.get, "/data/notes.json", token: app.token).status == 200)
    }

    @Test func recordsByIdAnswerAListAndUnknownIsNotFound() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        let a = try recordId(f.record("cars", #"{"n":1}"#, token: ann.token))
        let b = try recordId(f.record("cars", #"{"n":2}"#, token: ann.token))
        let both = try f.call(.get, "/data/cars/\(b),\(a).json", token: ann.token)
        #expect(both.status == 200 && both.items.compactMap { $0["_id"] as? String } == [b, a])
        #expect(try f.call(.get, "/data/cars/\(a),aaaaaaaaaaaaaaaaaaaaaaaa.json", token: ann.token).items.count == 1)
        #expect(try f.call(.get, "/data/cars/aaaaaaaaaaaaaaaaaaaaaaaa.json", token: ann.token).text == notFoundBody)
        #expect(try f.call(.get, "/data/trucks/\(a).json", token: ann.token).status == 404)
        #expect(try f.call(.get, "/data/cars/nonsense.json", token: ann.token).status == 422)
    }
}

@Suite("REST custom objects: searching")
struct CustomObjectSearchTests {
    /// Five cars of ann's.
    func cars() throws -> (ChatAPIFixture, token: String, ids: [String]) {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        var ids: [String] = []
        for (i, body) in [#"{"make":"BMW","value":100.0,"used":true,"tags":["red","fast"],"at":[13.4,52.5]}"#,
                          #"{"make":"Audi","value":150,"used":false,"tags":["red"],"at":[2.35,48.85]}"#,
                          #"{"make":"BMW X","value":200,"used":false,"tags":["blue","fast"]}"#,
                          #"{"make":"Lada","value":50,"tags":[]}"#,
                          #"{"make":"Audi","value":75.5,"used":true}"#].enumerated() {
            f.clock.now = 1_700_000_000 + Double(i)
            ids.append(try recordId(f.record("cars", body, token: ann.token)))
        }
        return (f, ann.token, ids)
    }

    @Test(arguments: [
        ("value=100", [0]), ("value%5Blt%5D=100", [3, 4]), ("value%5Blte%5D=100", [0, 3, 4]), ("value%5Bgt%5D=100", [1, 2]),
        ("value%5Bgte%5D=150", [1, 2]), ("make%5Bne%5D=Audi", [0, 2, 3]), ("make%5Bin%5D=Audi,Lada", [1, 3, 4]),
        ("make%5Bnin%5D=Audi,Lada", [0, 2]), ("tags%5Ball%5D=red,fast", [0]), ("tags=red", [0, 1]), ("tags%5Bin%5D=blue,red", [0, 1, 2]),
        ("make%5Bctn%5D=BMW", [0, 2]), ("used=true", [0, 4]), ("used%5Bne%5D=true", [1, 2, 3]),
        ("make%5Bor%5D=Lada&value%5Bor%5D=200", [2, 3]), ("make%5Bor%5D=Lada,BMW", [0, 3]),
        ("value%5Bgt%5D=60&make=Audi", [1, 4]), ("nothing=1", []), ("nothing%5Bne%5D=1", [0, 1, 2, 3, 4]),
        ("created_at%5Bgte%5D=1700000003", [3, 4]), ("created_at%5Blt%5D=2023-11-14T22:13:21Z", [0]),
        ("at%5Bnear%5D=13.38,52.52;10000", [0]), ("at%5Bnear%5D=8,50;1000000", [0, 1]),
    ])
    func everyDocumentedOperatorSelects(query: String, expected: [Int]) throws {
        let (f, token, ids) = try cars()
        #expect(try f.listedIds("cars", query, token: token) == expected.map { ids[$0] })
    }

    @Test func sortLimitSkipCountAndOutput() throws {
        let (f, token, ids) = try cars()
        #expect(try f.listedIds("cars", "", token: token) == ids)
        #expect(try f.listedIds("cars", "sort_desc=value", token: token) == [2, 1, 0, 4, 3].map { ids[$0] })
        #expect(try f.listedIds("cars", "sort_asc=make&limit=2&skip=1", token: token) == [4, 0].map { ids[$0] })
        #expect(try f.listedIds("cars", "sort_desc=_id&limit=2", token: token) == [4, 3].map { ids[$0] })
        #expect(try f.listedIds("cars", "limit=-1", token: token) == [ids[4]])
        let counted = try f.call(.get, "/data/cars.json", query: "count=1&value%5Bgt%5D=60", token: token)
        #expect(counted.text == #"{"class_name":"cars","items_count":4}"#)
        let page = try f.call(.get, "/data/cars.json", query: "limit=1&output%5Binclude%5D=make,value", token: token)
        #expect(page.object["limit"] as? Int == 1 && page.object["skip"] as? Int == 0 && page.object["class_name"] as? String == "cars")
        #expect(Set(page.items[0].keys) == ["_id", "make", "value"])
        let excluded = try f.call(.get, "/data/cars.json", query: "limit=1&output%5Bexclude%5D=tags,permissions", token: token)
        #expect(excluded.items[0]["tags"] == nil && excluded.items[0]["permissions"] == nil && excluded.items[0]["make"] != nil)
        #expect(try f.call(.get, "/data/cars.json", query: "limit=x", token: token).status == 422)
        #expect(try f.call(.get, "/data/cars.json", query: "value%5Bgt%5D=abc", token: token).status == 422)
        #expect(try f.call(.get, "/data/cars.json", query: "make%5Bregex%5D=B", token: token).status == 422)
        #expect(try f.call(.get, "/data/cars.json", query: "at%5Bnear%5D=1,2", token: token).status == 422)
        #expect(try f.call(.get, "/data/nobody.json", token: token).text == #"{"class_name":"nobody","skip":0,"limit":100,"items":[]}"#)
    }

    @Test func groupByWithCalcAggregatesEachGroup() throws {
        let (f, token, _) = try cars()
        let reply = try f.call(.get, "/data/cars.json", query: "group_by=make&value%5Bcalc%5D=avg&used%5Bne%5D=false", token: token)
        #expect(reply.status == 200)
        #expect(reply.text.contains(#""items":[{"make":"Audi","value_avg":75.5},{"make":"BMW","value_avg":100},{"make":"Lada","value_avg":50}]"#))
        for (op, audi) in [("min", 75.5), ("max", 150), ("sum", 225.5)] {
            let all = try f.call(.get, "/data/cars.json", query: "group_by=make&value%5Bcalc%5D=\(op)", token: token)
            #expect(all.items.first?["value_\(op)"] as? Double == audi)
        }
        #expect(try f.call(.get, "/data/cars.json", query: "group_by=make&make%5Bcalc%5D=avg", token: token).status == 422)
        #expect(try f.call(.get, "/data/cars.json", query: "group_by=make&value%5Bcalc%5D=median", token: token).status == 422)
    }

    @Test func childrenAreFoundByParentAndDeletedWithIt() throws {
        let (f, token, ids) = try cars()
        let review = try f.record("reviews", #"{"_parent_id":"\#(ids[0])","stars":5}"#, token: token)
        _ = try f.record("reviews", #"{"_parent_id":"\#(review["_id"]!)","stars":1}"#, token: token)
        _ = try f.record("reviews", #"{"stars":3}"#, token: token)
        #expect(review["_parent_id"] as? String == ids[0])
        #expect(try f.listedIds("reviews", "_parent_id=\(ids[0])", token: token) == [try recordId(review)])
        #expect(try f.call(.delete, "/data/cars/\(ids[0]).json", token: token).status == 200)
        #expect(try f.count("reviews", token: token) == 1)
        #expect(try f.call(.post, "/data/reviews.json", json: #"{"_parent_id":"no"}"#, token: token).status == 422)
    }
}

@Suite("REST custom objects: updates")
struct CustomObjectUpdateTests {
    @Test func theDocumentedUpdateOperators() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann")
        let id = try recordId(f.record("games", #"{"score":10,"ratio":1.5,"tags":["a","b","c","b"],"levels":[1,5,9,12]}"#, token: ann.token))
        func update(_ form: String) throws -> [String: Any] {
            let reply = try f.call(.put, "/data/games/\(id).json", form: form, token: ann.token)
            guard reply.status == 200 else { throw TestSupportError("\(form): \(reply.status) \(reply.text)") }
            return reply.object
        }
        #expect(try update("inc%5Bscore%5D=5&inc%5Bratio%5D=-0.5")["score"] as? Int == 15)
        #expect(try update("inc%5Bscore%5D=-20")["score"] as? Int == -5)
        #expect(try update("push%5Btags%5D%5B%5D=d&push%5Btags%5D%5B%5D=e")["tags"] as? [String] == ["a", "b", "c", "b", "d", "e"])
        #expect(try update("pull%5Btags%5D=b")["tags"] as? [String] == ["a", "c", "d", "e"])
        #expect(try update("pull_all%5Btags%5D%5B%5D=a&pull_all%5Btags%5D%5B%5D=e")["tags"] as? [String] == ["c", "d"])
        #expect(try update("add_to_set%5Btags%5D=c,x,y")["tags"] as? [String] == ["c", "d", "x", "y"])
        #expect(try update("pop%5Btags%5D=1")["tags"] as? [String] == ["c", "d", "x"])
        #expect(try update("pop%5Btags%5D=-1")["tags"] as? [String] == ["d", "x"])
        #expect(try update("tags%5B1%5D=z")["tags"] as? [String] == ["d", "z"])
        #expect(try update("pull%5Blevels%5D%5Bgt%5D=4&pull%5Blevels%5D%5Blt%5D=10")["levels"] as? [Int] == [1, 12])
        #expect(try update("pull%5Blevels%5D%5Bin%5D=1,2")["levels"] as? [Int] == [12])
        let json = try f.call(.put, "/data/games/\(id).json", json: #"{"push":{"levels":[13,14]},"inc":{"score":1},"title":"x"}"#, token: ann.token)
        #expect(json.object["levels"] as? [Int] == [12, 13, 14] && json.object["score"] as? Int == -4 && json.object["title"] as? String == "x")
        #expect(json.object["updated_at"] as? Int == 1_700_000_000)
        let refusals = ["inc%5Btitle%5D=1", "pop%5Btags%5D=2", "tags%5B9%5D=q", "push%5Bscore%5D%5B%5D=1", "pull%5Blevels%5D%5Bregex%5D=1",
                        "inc=5", "score=abc"]
        for form in refusals {
            #expect(try f.call(.put, "/data/games/\(id).json", form: form, token: ann.token).status == 422, "\(form)")
        }
        // Refused updates changed nothing.
        #expect(try f.call(.get, "/data/games/\(id).json", token: ann.token).items.first?["score"] as? Int == -4)
    }

    @Test func aRecordSentBackAsItWasReadChangesOnlyWhatChanged() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let car = try f.call(.post, "/data/cars.json",
                             form: "make=BMW&model=M5&permissions%5Bupdate%5D%5Baccess%5D=open_for_users_ids&permissions%5Bupdate%5D%5Bids%5D=\(bob.id)",
                             token: ann.token).object
        var sent = car
        sent["model"] = "M3"
        f.clock.now += 60
        let body = String(decoding: try JSONSerialization.data(withJSONObject: sent), as: UTF8.self)
        // As QB.data.update sends it: the whole record, by another user the record lets update.
        let updated = try f.call(.put, "/data/cars/\(car["_id"]!).json", json: body, token: bob.token)
        #expect(updated.status == 200, "\(updated.text)")
        #expect(updated.object["model"] as? String == "M3" && updated.object["make"] as? String == "BMW")
        #expect(updated.object["user_id"] as? Int == ann.id && updated.object["created_at"] as? Int == 1_700_000_000)
        #expect(updated.object["updated_at"] as? Int == 1_700_000_060)
        // Only the owner changes the permissions.
        let grab = try f.call(.put, "/data/cars/\(car["_id"]!).json", form: "permissions%5Bdelete%5D%5Baccess%5D=open", token: bob.token)
        #expect(grab.status == 403 && grab.text == forbiddenBody)
        #expect(try f.call(.put, "/data/cars/aaaaaaaaaaaaaaaaaaaaaaaa.json", form: "make=x", token: bob.token).status == 404)
    }

    @Test func multiCreatesAndUpdatesAllOrNone() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let made = try f.call(.post, "/data/notes/multi.json", form: "record%5B2%5D%5Btext%5D=second&record%5B1%5D%5Btext%5D=first&record%5B1%5D%5Bn%5D=1",
                              token: ann.token)
        #expect(made.status == 200 && made.object["class_name"] as? String == "notes")
        #expect(made.items.compactMap { $0["text"] as? String } == ["first", "second"])
        #expect(made.items[1]["n"] is NSNull)
        let bad = try f.call(.post, "/data/notes/multi.json", json: #"{"record":[{"n":2},{"n":"two"}]}"#, token: ann.token)
        #expect(bad.status == 422)
        #expect(try f.count("notes", token: ann.token) == 2)
        let ids = made.items.compactMap { $0["_id"] as? String }
        let missing = "aaaaaaaaaaaaaaaaaaaaaaaa"
        let updated = try f.call(.put, "/data/notes/multi.json", json: #"{"record":{"1":{"_id":"\#(ids[0])","n":7},"2":{"id":"\#(missing)","n":8},"3":{"_id":"\#(ids[1])","text":"2nd"}}}"#,
                                 token: ann.token)
        #expect(updated.status == 200)
        #expect(updated.object["not_found"] as? [String: [String]] == ["ids": [missing]])
        #expect(updated.items.compactMap { $0["n"] as? Int } == [7] && updated.items.last?["text"] as? String == "2nd")
        // Bob may update neither: the whole request is refused and nothing changes.
        let refused = try f.call(.put, "/data/notes/multi.json", form: "record%5B1%5D%5B_id%5D=\(ids[0])&record%5B1%5D%5Bn%5D=9", token: bob.token)
        #expect(refused.status == 403)
        #expect(try f.call(.get, "/data/notes/\(ids[0]).json", token: ann.token).items.first?["n"] as? Int == 7)
        #expect(try f.call(.put, "/data/notes/multi.json", form: "record%5B1%5D%5Bn%5D=9", token: ann.token).status == 422)
        #expect(try f.call(.post, "/data/notes/multi.json", form: "x=1", token: ann.token).status == 422)
    }

    @Test func byCriteriaChangesAndDeletesWhatTheCallerMay() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        for (owner, age) in [(ann, 3), (ann, 5), (ann, 7), (bob, 9)] {
            _ = try f.record("people", #"{"age":\#(age)}"#, token: owner.token)
        }
        let updated = try f.call(.put, "/data/people/by_criteria.json", form: "search_criteria%5Bage%5D%5Bgt%5D=4&score=100", token: ann.token)
        #expect(updated.status == 200)
        #expect(updated.object["total_found"] as? Int == 2 && updated.items.compactMap { $0["score"] as? Int } == [100, 100])
        #expect(try f.listedIds("people", "score=100", token: ann.token).count == 2)
        let json = try f.call(.put, "/data/people/by_criteria.json", json: #"{"search_criteria":{"age":{"lt":4}},"inc":{"age":10}}"#, token: ann.token)
        #expect(json.items.first?["age"] as? Int == 13)
        #expect(try f.call(.put, "/data/people/by_criteria.json", form: "score=1", token: ann.token).status == 422)
        let deleted = try f.call(.delete, "/data/people/by_criteria.json", query: "age%5Bgt%5D=6", token: ann.token)
        #expect(deleted.text == #"{"total_deleted":2}"#)
        #expect(try f.count("people", token: ann.token) == 2)
        #expect(try f.listedIds("people", "age=9", token: ann.token).count == 1)
        #expect(try f.call(.delete, "/data/people/by_criteria.json", token: ann.token).status == 422)
    }
}

@Suite("REST custom objects: permissions and deleting")
struct CustomObjectPermissionTests {
    @Test func readUpdateAndDeleteFollowEachRecordsRules() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob"), cat = try f.user("cat")
        var tagged = UserChanges()
        tagged.tags = ["golf", "man"]
        _ = try f.database.updateUser(id: cat.id, tagged)
        let secret = try f.call(.post, "/data/docs.json", form: "t=secret&permissions%5Bread%5D%5Baccess%5D=owner", token: ann.token).object
        let shared = try f.call(.post, "/data/docs.json",
                                form: "t=shared&permissions%5Bupdate%5D%5Baccess%5D=open_for_groups&permissions%5Bupdate%5D%5Bgroups%5D=golf"
                                    + "&permissions%5Bdelete%5D%5Baccess%5D=open_for_users_ids&permissions%5Bdelete%5D%5Bids%5D=\(bob.id)",
                                token: ann.token).object
        let sharedId = try recordId(shared), secretId = try recordId(secret)
        let rules = try #require(shared["permissions"] as? [String: [String: Any]])
        #expect(rules["update"]?["users_groups"] as? [String] == ["golf"] && rules["delete"]?["users_ids"] as? [String] == [String(bob.id)])
        // Reading: bob sees only the open one.
        #expect(try f.listedIds("docs", "", token: bob.token) == [sharedId])
        #expect(try f.count("docs", token: bob.token) == 1 && f.count("docs", token: ann.token) == 2)
        #expect(try f.call(.get, "/data/docs/\(secretId).json", token: bob.token).text == forbiddenBody)
        // Updating: cat (tagged golf) may; bob may not.
        #expect(try f.call(.put, "/data/docs/\(sharedId).json", form: "t=by+cat", token: cat.token).status == 200)
        #expect(try f.call(.put, "/data/docs/\(sharedId).json", form: "t=by+bob", token: bob.token).status == 403)
        // Deleting: several ids answer the three lists; bob may delete only the one open to him.
        let missing = "aaaaaaaaaaaaaaaaaaaaaaaa"
        let lists = try f.call(.delete, "/data/docs/\(sharedId),\(secretId),\(missing).json", token: bob.token)
        #expect(lists.object["SuccessfullyDeleted"] as? [String: [String]] == ["ids": [sharedId]])
        #expect(lists.object["WrongPermissions"] as? [String: [String]] == ["ids": [secretId]])
        #expect(lists.object["NotFound"] as? [String: [String]] == ["ids": [missing]])
        #expect(try f.call(.delete, "/data/docs/\(secretId).json", token: cat.token).text == forbiddenBody)
        #expect(try f.call(.delete, "/data/docs/\(missing).json", token: ann.token).text == notFoundBody)
        let gone = try f.call(.delete, "/data/docs/\(secretId).json", token: ann.token)
        #expect(gone.status == 200 && gone.text.isEmpty)
        #expect(try f.count("docs", token: ann.token) == 0)
    }
}

@Suite("REST custom objects: file fields")
struct CustomObjectFileTests {
    /// The fixture with a storage endpoint keeping files in memory.
    final class Files {
        var stored: [String: [UInt8]] = [:]
        var removed: [String] = []
    }

    func fixture(maximumUpload: Int = 1 << 20) throws -> (ChatAPIFixture, Files) {
        let f = try ChatAPIFixture()
        let files = Files()
        f.api.blobStorage = StorageEndpointAccess(
            uploadURL: { id, key, _, _, _ in "http://storage.invalid/blobs/\(id)/upload/?key=\(key)" },
            downloadURL: { key, type, _ in "http://storage.invalid/files/\(key)?type=\(type)" },
            isKey: { _ in true }, storedSize: { files.stored[$0]?.count },
            remove: { files.removed.append($0); files.stored[$0] = nil },
            store: { key, bytes in files.stored[key] = bytes; return .stored },
            maximumUpload: maximumUpload, urlLifetime: 3600)
        return (f, files)
    }

    @Test func aFileIsUploadedDownloadedReplacedAndDeleted() throws {
        let (f, files) = try fixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let id = try recordId(f.record("cars", #"{"make":"BMW"}"#, token: ann.token))
        let bytes = Array("Hello QuickBlox cars".utf8)
        let uploaded = try f.multipart(.post, "/data/cars/\(id)/file.json", fields: [("field_name", "motors")],
                                       file: ("bmw.txt", "text/plain", bytes), token: ann.token)
        #expect(uploaded.status == 200)
        #expect(uploaded.object["name"] as? String == "bmw.txt" && uploaded.object["size"] as? Int == bytes.count)
        #expect(uploaded.object["content_type"] as? String == "text/plain" && uploaded.object["_id"] as? String == id)
        let uid = try #require(uploaded.object["file_id"] as? String)
        #expect(files.stored[uid] == bytes)
        let record = try f.call(.get, "/data/cars/\(id).json", token: ann.token).items[0]
        #expect((record["motors"] as? [String: Any])?["file_id"] as? String == uid)
        // Anyone who may read the record follows a redirect to the file, with the token in the query too.
        let query = "field_name=motors&token=\(bob.token)"
        let redirect = f.router.handle(try RESTRequest(method: .get, path: "/data/cars/\(id)/file.json", headers: [:], query: query, body: []))
        #expect(redirect.status == 301)
        #expect(redirect.body == nil)
        let noToken = f.router.handle(try RESTRequest(method: .get, path: "/data/cars/\(id)/file.json", headers: [:], query: "field_name=motors", body: []))
        #expect(noToken.status == 401)
        // A second upload replaces the first, whose file goes.
        let again = try f.multipart(.post, "/data/cars/\(id)/file.json", fields: [("field_name", "motors")],
                                    file: ("v2.bin", "application/octet-stream", [1, 2, 3]), token: ann.token)
        let second = try #require(again.object["file_id"] as? String)
        #expect(files.removed == [uid] && files.stored[second] == [1, 2, 3])
        // Bob may not change ann's record; a field holding no file, a file to a text field, none given: refused.
        #expect(try f.multipart(.post, "/data/cars/\(id)/file.json", fields: [("field_name", "motors")], file: ("x", "text/plain", [1]),
                                token: bob.token).status == 403)
        #expect(try f.multipart(.post, "/data/cars/\(id)/file.json", fields: [("field_name", "make")], file: ("x", "text/plain", [1]),
                                token: ann.token).status == 422)
        #expect(try f.multipart(.post, "/data/cars/\(id)/file.json", fields: [("field_name", "motors")], file: nil, token: ann.token).status == 422)
        #expect(try f.call(.delete, "/data/cars/\(id)/file.json", query: "field_name=motors", token: bob.token).status == 403)
        // Deleting empties the field and removes the file.
        let deleted = try f.call(.delete, "/data/cars/\(id)/file.json", query: "field_name=motors", token: ann.token)
        #expect(deleted.status == 200 && deleted.text.isEmpty)
        #expect(files.stored.isEmpty && files.removed == [uid, second])
        #expect(try f.call(.get, "/data/cars/\(id).json", token: ann.token).items[0]["motors"] is NSNull)
        #expect(try f.call(.delete, "/data/cars/\(id)/file.json", query: "field_name=motors", token: ann.token).status == 404)
        #expect(try f.call(.get, "/data/cars/\(id)/file.json", query: "field_name=motors", token: ann.token).status == 404)
        // A text field sent back as it was read leaves the file field alone (the SDK's update).
        _ = try f.multipart(.post, "/data/cars/\(id)/file.json", fields: [("field_name", "motors")], file: ("a", "text/plain", [7]), token: ann.token)
        #expect(try f.call(.put, "/data/cars/\(id).json", json: #"{"motors":null,"make":"Audi"}"#, token: ann.token).object["motors"] is [String: Any])
    }

    @Test func aMultipartBodyThatDoesNotEndWellIs400() throws {
        let headers = ["Content-Type": "multipart/form-data; boundary=XyZ"]
        for body in ["--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1", "no boundary at all", "--XyZ\r\nno headers\r\n--XyZ--"] {
            #expect(throws: RESTError.self) {
                _ = try RESTRequest(method: .post, path: "/data/cars/aaaaaaaaaaaaaaaaaaaaaaaa/file.json", headers: headers, query: nil, body: Array(body.utf8))
            }
        }
        // A quoted boundary, a text field and a file part, as browsers send them.
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"field_name\"\r\n\r\nmotors\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\u{0}\r\n\u{1}\r\n--XyZ--\r\n"
        let request = try RESTRequest(method: .post, path: "/x", headers: ["Content-Type": "multipart/form-data; boundary=\"XyZ\""], query: nil,
                                      body: Array(body.utf8))
        #expect(request.parameter("field_name") == "motors")
        #expect(request.files.map(\.bytes) == [[0, 13, 10, 1]] && request.files.first?.fileName == "a.bin")
    }

    @Test func aFileOverTheLimitIs413AndDeletingTheRecordDeletesItsFiles() throws {
        let (f, files) = try fixture(maximumUpload: 8)
        let ann = try f.user("ann")
        let id = try recordId(f.record("cars", #"{"make":"BMW"}"#, token: ann.token))
        let large = try f.multipart(.post, "/data/cars/\(id)/file.json", fields: [("field_name", "photo")], file: ("big", "image/png", Array(repeating: 1, count: 9)),
                                    token: ann.token)
        #expect(large.status == 413 && files.stored.isEmpty)
        let ok = try f.multipart(.post, "/data/cars/\(id)/file.json", fields: [("field_name", "photo")], file: ("ok", "image/png", [1, 2]), token: ann.token)
        let uid = try #require(ok.object["file_id"] as? String)
        #expect(try f.call(.delete, "/data/cars/\(id).json", token: ann.token).status == 200)
        #expect(files.removed == [uid] && files.stored.isEmpty)
        #expect(try f.api.blobs.blob(uid: uid) == nil)
    }
}
