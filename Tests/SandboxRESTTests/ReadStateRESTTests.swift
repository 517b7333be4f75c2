// Read state over REST (docs/protocol.md §6): a read mark adds the caller to both lists.
import Foundation
import Testing

@Suite("REST read state")
struct ReadStateRESTTests {
    @Test func putReadWithAJSONBodyAddsTheCallerToBothLists() throws {
        let f = try ChatAPIFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let dialog = try f.createDialog("type=3&occupants_ids=\(bob.id)", token: ann.token)["_id"] as! String
        let id = try f.send(dialog, "hi", token: ann.token)["_id"] as! String
        let put = try f.call(.put, "/chat/Message/\(id).json", json: #"{"chat_dialog_id":"\#(dialog)","read":1}"#, token: bob.token)
        #expect(put.status == 200 && put.text.isEmpty)
        let item = try #require(try f.call(.get, "/chat/Message.json", query: "chat_dialog_id=\(dialog)&mark_as_read=0", token: ann.token).items.first)
        #expect(item["read_ids"] as? [Int] == [ann.id, bob.id] && item["delivered_ids"] as? [Int] == [ann.id, bob.id])
        #expect(try f.call(.get, "/chat/Message/unread.json", token: bob.token).text == #"{"total":0,"\#(dialog)":0}"#)
        // Someone outside the dialog is refused.
        let eve = try f.user("eve")
        #expect(try f.call(.put, "/chat/Message/\(id).json", json: #"{"read":1}"#, token: eve.token).status == 403)
    }
}
