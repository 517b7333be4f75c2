// chatctl's side of the push message twins (docs/protocol.md §14): each golden vector's text
// and parameters written in the universal, APNs and GCM forms; and the request's body.
import Testing
import TestSupport
@testable import QuickBloxAPI

@Suite struct PushNotificationTests {
    @Test(arguments: GoldenVectors.pushMessages)
    func theMessageIsWrittenInEachFormAsTheServiceDocumentsIt(vector: GoldenVectors.PushMessage) {
        var push = QBPushNotification(text: vector.text, data: vector.data)
        #expect(push.message == vector.universal)
        push.channel = .apns
        #expect(push.message == vector.apns)
        push.channel = .apnsVoIP
        #expect(push.message == vector.apns)
        push.channel = .gcm
        #expect(push.message == vector.gcm)
    }

    @Test func theBodyNamesTheTypeEnvironmentAndRecipients() {
        let push = QBPushNotification(text: "hi", channel: .gcm, production: true, userIDs: [3, 5], tagsAny: ["vip"],
                                      tagsExclude: ["churned", "test"], name: "nightly")
        #expect(push.body == ["event": [
            "notification_type": "push", "push_type": "gcm", "environment": "production", "name": "nightly",
            "message": .string(push.message),
            "user": ["ids": "3,5", "tags": ["any": "vip", "exclude": "churned,test"]],
        ]])
        let mail = QBPushNotification(text: "report", channel: .email, userIDs: [1])
        #expect(mail.body["event"]?["notification_type"] == "email" && mail.body["event"]?["push_type"] == nil)
        #expect(mail.body["event"]?["environment"] == "development" && mail.message == "cmVwb3J0")
    }

    @Test func anEventIsReadBareOrWrappedWithItsStatus() throws {
        let json = try JSONValue(parsing: Array("""
            {"event":{"id":12,"event_type":"one_shot","message":"aGk=","occured_count":"1","active":false,"environment":"development",
             "notification_channel":null,"created_at":"2026-12-07T10:00:00Z","status":"sent","deliveries_count":3,"name":null}}
            """.utf8))
        let event = try #require(QBPushEvent(json: json))
        #expect(event.id == 12 && event.eventType == "one_shot" && event.channel == nil && event.occurredCount == 1)
        #expect(event.active == false && event.status == "sent" && event.deliveriesCount == 3 && event.name == nil)
        #expect(event.createdAt?.timeIntervalSince1970 == 1_796_637_600)
        #expect(QBPushEvent(json: ["event": ["name": "no id"]]) == nil)
    }

    /// Events are paged by number as users are: the same paging fields, and an item without
    /// an id is an invalid answer that says what it lacked.
    @Test func aPageOfEventsIsReadAsAPageOfUsersIs() throws {
        let transport = ScriptedTransport([
            reply(200, #"{"current_page":"2","per_page":1,"total_entries":3,"items":[{"event":{"id":7}}]}"#),
            reply(200, #"{"items":[{"id":8}]}"#),
            reply(200, #"{"items":[{"id":8},{"event":{"name":"no id"}}]}"#),
        ])
        let api = chatClient(transport)
        let page = try api.pushEvents(page: 2, perPage: 1)
        #expect(transport.requests[0].url == "http://127.0.0.1:8080/events.json?page=2&per_page=1")
        #expect(page == QBPushEventPage(currentPage: 2, perPage: 1, totalEntries: 3, items: page.items))
        #expect(page.items.map(\.id) == [7] && page.hasMore)
        let bare = try api.pushEvents(page: 4, perPage: 10)
        #expect(bare.items.map(\.id) == [8] && bare.currentPage == 4 && bare.totalEntries == 1 && !bare.hasMore)
        let error = try #require(throws: QuickBloxError.self) { try api.pushEvents(page: 1, perPage: 10) }
        #expect(error.kind == .invalidResponse && error.reasons == ["an item without an event id"])
    }
}
