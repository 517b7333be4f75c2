import Foundation
import Testing
import MessageCache
import Messaging
@testable import ChatctlCLI
@testable import Presentation

/// What `listen` prints for a message (yours from another device included) and for a
/// dialog a system notification brought.
@Suite struct ListenOutputTests {
    static let raw = #"{"_id":"6b0db884edb3b3d9cddf1330","chat_dialog_id":"6b0db884c4ca891d2141e1c9","date_sent":1764460800,"message":"hi","recipient_id":2,"sender_id":1}"#
    static func message(sender: Int, text: String = "hi") -> CachedMessage {
        CachedMessage(id: "6b0db884edb3b3d9cddf1330", dialogID: "6b0db884c4ca891d2141e1c9", senderID: sender, recipientID: 2,
                      dateSent: 1_764_460_800, text: text, rawJSON: raw)
    }

    @Test func othersAreNamedAndYoursSayYou() {
        #expect(ListenOutput.line(Self.message(sender: 2), title: "ops", sender: "Bob", outgoing: false, zone: .utc) == "00:00 [ops] Bob: hi\n")
        #expect(ListenOutput.line(Self.message(sender: 1), title: "Bob", sender: "Alice", outgoing: true, zone: .utc) == "00:00 [Bob] you: hi\n")
    }

    @Test func namesTitlesAndTextFromOthersPrintInert() {
        let line = ListenOutput.line(Self.message(sender: 2, text: "a\u{1B}]0;owned\u{07}b\nc"), title: "o\u{1B}[2Jps", sender: "Eve\u{1B}[31m",
                                     outgoing: false, zone: .utc)
        #expect(line == "00:00 [ops] Eve: ab\n    c\n")
    }

    /// Yours gain `"outgoing":true`; every other key stays as the server sent it.
    @Test func jsonMarksYoursOutgoingAndLeavesOthersAsCached() throws {
        #expect(ListenOutput.json(Self.message(sender: 2), outgoing: false, me: 1) == Self.raw + "\n")
        let mine = ListenOutput.json(Self.message(sender: 1), outgoing: true, me: 1)
        #expect(mine.hasSuffix("}\n") && mine.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(mine.utf8)) as? [String: Any])
        #expect(object["outgoing"] as? Bool == true)
        #expect(object["message"] as? String == "hi" && object["sender_id"] as? Int == 1 && object["_id"] as? String == "6b0db884edb3b3d9cddf1330")
        #expect(object["status"] as? String == "sent")
        #expect(object.count == 10, "the server's 6 keys, outgoing, status and the two id lists")
    }

    /// `listen --download`: the saved paths added, null where one could not be saved.
    @Test func downloadedPathsAreAddedAsAKeyOfTheirOwn() throws {
        let line = ListenOutput.json(Self.message(sender: 2), outgoing: false, me: 1, downloaded: ["in/cat.jpg", nil])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect((object["downloaded"] as? [Any])?.count == 2)
        #expect((object["downloaded"] as? [Any])?.first as? String == "in/cat.jpg")
        #expect((object["downloaded"] as? [Any])?.last is NSNull)
        #expect(object.count == 7, "the server's 6 keys and downloaded")
        #expect(ListenOutput.json(Self.message(sender: 2), outgoing: false, me: 1, downloaded: []).contains(#","downloaded":[],"#))
    }

    @Test func noticesSayWhoAddedYouToWhat() {
        let group = CachedDialog(id: "6b0db895c4ca891d2141e1cc", type: .group, name: "ops", occupantIDs: [1, 2], updatedAt: 0, rawJSON: "{}")
        let pair = CachedDialog(id: "6b0db884c4ca891d2141e1c9", type: .private, name: "", occupantIDs: [1, 2], updatedAt: 0, rawJSON: "{}")
        #expect(ListenOutput.notice(DialogNotice(change: .added, dialog: group, actorID: 2), actor: "alice", title: "ops") == "alice added you to ops")
        #expect(ListenOutput.notice(DialogNotice(change: .added, dialog: group, actorID: nil), actor: nil, title: "ops") == "you were added to ops")
        #expect(ListenOutput.notice(DialogNotice(change: .updated, dialog: group, actorID: 2), actor: "alice", title: "ops") == "alice updated ops")
        #expect(ListenOutput.notice(DialogNotice(change: .added, dialog: pair, actorID: 2), actor: "alice", title: "alice")
            == "alice started a private dialog with you")
        #expect(ListenOutput.notice(DialogNotice(change: .added, dialog: group, actorID: 2), actor: "al\u{1B}[2Jice", title: "o\u{7}ps")
            == "alice added you to ops")
    }
}
