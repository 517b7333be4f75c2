#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPTransport
import QuickBloxAPI
import TestSupport

/// chatctl's decoders fed the shapes of QuickBlox's published REST reference (Swagger 2.0, 2018;
/// Tests/InteropTests/Resources/quickblox-rest-2018.json): objects without envelopes where its
/// schemas have none, null for every unset field, numbers where its examples have numbers (a
/// `photo`, a `facebook_id`, an attachment's `id`), and its date form `2016-03-23 17:00:42+00:00`.
@Suite struct ReferenceShapeTests {
    /// 2016-03-23 17:00:42 UTC, the reference's date form.
    static let date = "2016-03-23 17:00:42+00:00"
    static let seconds = 1_458_752_442

    /// A UserObject with every key of the reference: unset ones null, numbers as its examples.
    static let user = """
        {"id":53454,"full_name":null,"login":"samuelrulez","phone":4487556488,"website":null,
         "created_at":"\(date)","updated_at":"\(date)","last_request_at":null,
         "facebook_id":100000883956766,"twitter_id":null,"twitter_digits_id":null,"external_user_id":21445,
         "blob_id":12312412,"custom_data":null,"user_tags":["man","car"]}
        """

    @Test func aSessionObjectWithoutItsEnvelope() throws {
        let body = #"{"_id":"56f2ca3aa28f9a1f5b000002","application_id":92,"created_at":"\#(Self.date)","nonce":189463,"token":"tok-bare","ts":1473075233,"updated_at":"\#(Self.date)","user_id":53454,"id":7}"#
        let transport = ScriptedTransport([reply(201, body)])
        let client = QuickBloxClient(apiEndpoint: UserEndpointTests.base, credentials: QuickBloxClientTests.app, transport: transport)
        client.retryPolicy = .never
        let session = try client.createSession()
        #expect(session.token == "tok-bare" && session.applicationId == 92 && session.userId == 53454)
        #expect(client.token == "tok-bare")
    }

    @Test func aUserObjectWithNullsNumbersAndTheReferencesDates() throws {
        let transport = ScriptedTransport([reply(200, #"{"user":\#(Self.user)}"#), reply(200, Self.user)])
        let client = chatClient(transport)
        for user in [try client.user(id: 53454), try client.logIn(UserCredentials(identity: .login("samuelrulez"), password: "x"))] {
            #expect(user.id == 53454 && user.login == "samuelrulez" && user.fullName == nil && user.email == nil)
            #expect(user.phone == "4487556488", "a number where the reference's example has one")
            #expect(user.externalUserID == 21445 && user.blobID == 12312412 && user.tags == ["man", "car"])
            #expect(user.website == nil && user.customData == nil && user.lastRequestAt == nil)
            #expect(user.createdAt == Self.date)
            #expect(user.raw["facebook_id"] == .int(100000883956766))
        }
    }

    @Test func aPageOfBareUserObjects() throws {
        let page = #"{"current_page":1,"per_page":30,"total_entries":1,"items":[\#(Self.user)]}"#
        let result = try chatClient(ScriptedTransport([reply(200, page)])).users(page: 1, perPage: 30)
        #expect(result.items.map(\.id) == [53454] && result.totalEntries == 1 && result.perPage == 30)
    }

    @Test func aDialogObjectWithNullsAndANumericPhoto() throws {
        let dialog = """
            {"_id":"53aabe15e4b077ddd43e7fd6","created_at":"\(Self.date)","updated_at":"\(Self.date)","type":2,
             "occupants_ids":[56,558,12],"unread_messages_count":0,"last_message":null,"last_message_date_sent":null,
             "last_message_user_id":null,"name":"Chat with Bob, Sam, Garry","photo":67834,"xmpp_room_jid":null,"user_id":56}
            """
        let page = #"{"limit":100,"skip":0,"total_entries":1,"items":[\#(dialog)]}"#
        let result = try chatClient(ScriptedTransport([reply(200, page)])).dialogs()
        let got = try #require(result.items.first)
        #expect(got.id == "53aabe15e4b077ddd43e7fd6" && got.type == .group && got.occupantIDs == [56, 558, 12])
        #expect(got.photo == "67834" && got.lastMessage == nil && got.lastMessageDateSent == nil && got.lastMessageUserId == nil)
        #expect(got.xmppRoomJID == nil && got.userId == 56)
        #expect(got.createdAt == Date(timeIntervalSince1970: Double(Self.seconds)))
    }

    @Test func aMessageObjectWithNumbersNullsAndNoDateSent() throws {
        let message = """
            {"_id":"5d755856a0eb47411e0b72a9","created_at":"\(Self.date)","updated_at":"\(Self.date)",
             "chat_dialog_id":"53aabe15e4b077ddd43e7fd6","message":"Wish I could be here!","date_sent":null,
             "sender_id":4124234,"recipient_id":null,"delivered_ids":[4124234],"read_ids":[4124234],
             "attachments":[{"type":"image","id":47863,"url":null}]}
            """
        let page = #"{"limit":100,"skip":0,"items":[\#(message)]}"#
        let query = MessageQuery(dialogId: "53aabe15e4b077ddd43e7fd6")
        let result = try chatClient(ScriptedTransport([reply(200, page)])).messages(query)
        let got = try #require(result.items.first)
        #expect(got.dateSent == Self.seconds, "without date_sent, created_at in the reference's form")
        #expect(got.recipientId == nil && got.senderId == 4124234 && got.readIds == [4124234])
        #expect(got.attachments.first?.id == "47863" && got.attachments.first?.url == nil && got.attachments.first?.type == "image")
    }

    @Test func aFileObjectWithItsAccessAndNulls() throws {
        let blob = """
            {"blob":{"id":56713,"created_at":"\(Self.date)","updated_at":"\(Self.date)","name":"museum.jpg",
             "content_type":"image/jpeg","public":false,"size":null,"blob_status":null,"last_read_access_ts":null,
             "set_completed_at":null,"uid":"358d2cba6ca74127a087530f3e82e8d800",
             "blob_object_access":{"id":56713,"blob_id":56713,"object_access_type":"Write","expires":"\(Self.date)",
             "params":"https://qbprod.s3.amazonaws.com/?Content-Type=image%2Fjpeg&Expires=Wed%2C%2030%20Sep%202015%2013%3A29%3A39%20GMT&acl=authenticated-read&key=358d2cba6ca74127a087530f3e82e8d800&policy=eyJ&success_action_status=201&x-amz-algorithm=AWS4-HMAC-SHA256&x-amz-credential=AKIA%2Fs3%2Faws4_request&x-amz-date=20150930T122939Z&x-amz-signature=eee1"}}}
            """
        let created = try chatClient(ScriptedTransport([reply(201, blob)])).createBlob(name: "museum.jpg", contentType: "image/jpeg")
        #expect(created.id == 56713 && created.uid == "358d2cba6ca74127a087530f3e82e8d800")
        #expect(created.size == nil && created.status == nil && created.isPublic == false)
        let ticket = try #require(created.upload)
        #expect(ticket.expires == Date(timeIntervalSince1970: Double(Self.seconds)))
    }

    @Test func unreadCountsNotificationsAndDeletionListsAsTheReferenceHasThem() throws {
        let transport = ScriptedTransport([
            reply(200, #"{"total":5,"53aabe15e4b077ddd43e7fd6":3,"23aabe15e4b077ddd43e7fd1":2}"#),
            reply(200, #"{"notifications":{"enabled":0}}"#),
            reply(200, #"{"SuccessfullyDeleted":{"ids":["53aabe15e4b077ddd43e7fd6"]},"WrongPermissions":{"ids":[]},"NotFound":{"ids":["23aabe15e4b077ddd43e7fd1"]}}"#),
        ])
        let client = chatClient(transport)
        let counts = try client.unreadCounts(dialogIds: ["53aabe15e4b077ddd43e7fd6", "23aabe15e4b077ddd43e7fd1"])
        #expect(counts == QBUnreadCounts(total: 5, byDialog: ["53aabe15e4b077ddd43e7fd6": 3, "23aabe15e4b077ddd43e7fd1": 2]))
        #expect(try client.dialogNotifications(dialogID: "53aabe15e4b077ddd43e7fd6").enabled == false)
        let deleted = try client.deleteMessages(ids: ["53aabe15e4b077ddd43e7fd6", "23aabe15e4b077ddd43e7fd1"], force: true)
        #expect(deleted == QBDeletionResult(successfullyDeleted: ["53aabe15e4b077ddd43e7fd6"], notFound: ["23aabe15e4b077ddd43e7fd1"]))
    }
}
