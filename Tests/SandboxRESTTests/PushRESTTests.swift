// Push notifications (docs/protocol.md §14), in process over the route table: subscriptions,
// events to each kind of recipient, payloads per channel, refusals that store nothing, the
// schedule of dated events, and the record of every delivery with its log line.
import Foundation
import Testing
import TestSupport
import SandboxHTTP
import SandboxREST
import SandboxStorage

/// `ChatAPIFixture` with users who have tags, external ids and phones, and the log captured.
final class PushFixture {
    let chat: ChatAPIFixture
    var log: [String] = []

    init() throws {
        chat = try ChatAPIFixture()
        chat.api.notice = { [unowned self] in self.log.append($0) }
    }

    var api: SandboxAPI { chat.api }
    var clock: TestClock { chat.clock }

    func user(_ login: String, tags: [String] = [], externalId: Int? = nil, phone: String? = nil) throws -> (id: Int, token: String) {
        let user = try chat.database.insertUser(NewUser(login: login, password: "password-\(login)",
                                                        profile: UserProfile(phone: phone, externalUserId: externalId, tags: tags)))
        let session = try chat.database.createSession(applicationId: ChatAPIFixture.applicationId, userId: user.id, nonce: 1, timestamp: 1)
        return (user.id, session.token)
    }

    func call(_ method: HTTPRequest.Method, _ path: String, query: String? = nil, form: String? = nil, json: String? = nil,
              token: String) throws -> ChatAPIFixture.Reply {
        try chat.call(method, path, query: query, form: form, json: json, token: token)
    }

    /// Subscribes the user's device `udid` to `channel` in `environment`.
    @discardableResult
    func subscribe(_ token: String, _ channel: String, udid: String, platform: String = "android",
                   environment: String = "development") throws -> Int {
        let reply = try call(.post, "/subscriptions.json", form: """
            notification_channel=\(channel)&push_token[environment]=\(environment)&push_token[client_identification_sequence]=token-\(udid)\
            &device[platform]=\(platform)&device[udid]=\(udid)
            """, token: token)
        guard reply.status == 201, let first = (try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? [[String: Any]])?.first,
              let id = (first["subscription"] as? [String: Any])?["id"] as? Int else {
            throw TestSupportError("subscribe: \(reply.status) \(reply.text)")
        }
        return id
    }

    /// Every delivery on record, oldest first.
    func deliveries() throws -> [PushDeliveryRecord] { try api.push.deliveries(eventId: nil, userId: nil, page: 1, perPage: 1000).items }

    /// The users the deliveries went to, in order.
    func recipients() throws -> [Int] { try deliveries().map(\.userId) }

    static func event(_ reply: ChatAPIFixture.Reply) -> [String: Any] { reply.object["event"] as? [String: Any] ?? [:] }
}

func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

@Suite("REST push subscriptions")
struct PushSubscriptionRESTTests {
    @Test func aDeviceIsSubscribedListedAndRemovedAsTheJavaScriptSDKDoesIt() throws {
        let f = try PushFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        // The SDK's own spelling, notification_channels, and its form encoding.
        let created = try f.call(.post, "/subscriptions.json", form: """
            device%5Bplatform%5D=android&device%5Budid%5D=jasmineUnique&notification_channels=gcm\
            &push_token%5Bbundle_identifier%5D=com.quickblox.chatapp&push_token%5Bclient_identification_sequence%5D=fDmkp3zh\
            &push_token%5Benvironment%5D=development
            """, token: ann.token)
        #expect(created.status == 201)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(created.text.utf8)) as? [[String: Any]])
        let subscription = try #require(array.first?["subscription"] as? [String: Any])
        let device = try #require(subscription["device"] as? [String: Any])
        #expect((device["platform"] as? [String: Any])?["name"] as? String == "android")
        #expect(device["udid"] as? String == "jasmineUnique" && device["client_identification_sequence"] as? String == "fDmkp3zh")
        #expect(device["bundle_identifier"] as? String == "com.quickblox.chatapp")
        #expect((subscription["notification_channel"] as? [String: Any])?["name"] as? String == "gcm")
        let id = try #require(subscription["id"] as? Int)

        let listed = try f.call(.get, "/subscriptions.json", token: ann.token)
        #expect(listed.status == 200 && listed.text.hasPrefix(#"[{"subscription":{"id":\#(id),"#), "\(listed.text)")
        #expect(try f.call(.get, "/subscriptions.json", token: bob.token).status == 404, "Bob has none")
        #expect(try f.call(.delete, "/subscriptions/\(id).json", token: bob.token).status == 403, "not Bob's to remove")
        let removed = try f.call(.delete, "/subscriptions/\(id).json", token: ann.token)
        #expect(removed.status == 200 && removed.text.isEmpty)
        #expect(try f.call(.delete, "/subscriptions/\(id).json", token: ann.token).status == 404)
        #expect(try f.call(.get, "/subscriptions.json", token: ann.token).status == 404)
    }

    @Test func oneRequestSubscribesADeviceToSeveralChannelsAndAgainRenewsThem() throws {
        let f = try PushFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let reply = try f.call(.post, "/subscriptions.json", json: """
            {"notification_channel":"apns,apns_voip","push_token":{"environment":"production","client_identification_sequence":"t1"},
             "device":{"platform":"ios","udid":"phone-1"}}
            """, token: ann.token)
        #expect(reply.status == 201)
        #expect(try f.api.push.subscriptions(userId: ann.id).map(\.device.channel) == [.apns, .apnsVoIP])
        // The same device and channel again is the same subscription, renewed; from Bob's
        // session it is Bob's now (the phone changed hands).
        let first = try f.api.push.subscriptions(userId: ann.id)[0]
        let again = try f.subscribe(bob.token, "apns", udid: "phone-1", platform: "ios")
        #expect(again == first.id)
        let renewed = try #require(try f.api.push.subscription(id: first.id))
        #expect(renewed.userId == bob.id && renewed.device.environment == .development && renewed.device.token == "token-phone-1")
        #expect(try f.api.push.subscriptions(userId: ann.id).map(\.device.channel) == [.apnsVoIP])
    }

    @Test(arguments: [
        ("push_token[environment]=development&push_token[client_identification_sequence]=t&device[platform]=ios&device[udid]=u",
         "notification_channel"),
        ("notification_channel=sms&push_token[environment]=development&push_token[client_identification_sequence]=t&device[platform]=ios&device[udid]=u",
         "notification_channel"),
        ("notification_channel=apns&push_token[environment]=staging&push_token[client_identification_sequence]=t&device[platform]=ios&device[udid]=u",
         "push_token[environment]"),
        ("notification_channel=apns&push_token[environment]=development&device[platform]=ios&device[udid]=u",
         "push_token[client_identification_sequence]"),
        ("notification_channel=apns&push_token[environment]=development&push_token[client_identification_sequence]=t&device[platform]=symbian&device[udid]=u",
         "device[platform]"),
        ("notification_channel=apns&push_token[environment]=development&push_token[client_identification_sequence]=t&device[platform]=ios",
         "device[udid]"),
    ])
    func aBadSubscriptionIsA422NamingTheFieldAndStoresNothing(form: String, field: String) throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        let reply = try f.call(.post, "/subscriptions.json", form: form, token: ann.token)
        #expect(reply.status == 422)
        let errors = try #require(reply.errors as? [String: [String]], "\(reply.text)")
        #expect(errors[field]?.isEmpty == false, "\(reply.text)")
        #expect(try f.api.push.subscriptions(userId: ann.id).isEmpty)
    }

    @Test func mailNeedsNoTokenAndAnApplicationSessionMaySubscribeNothing() throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        let mail = try f.call(.post, "/subscriptions.json",
                              form: "notification_channel=email&push_token[environment]=production&device[platform]=ios&device[udid]=u",
                              token: ann.token)
        #expect(mail.status == 201, "mail needs no token: \(mail.text)")
        let app = try f.chat.database.createSession(applicationId: ChatAPIFixture.applicationId, userId: 0, nonce: 2, timestamp: 2)
        let refused = try f.call(.get, "/subscriptions.json", token: app.token)
        #expect(refused.status == 422 && refused.text.contains("Forbidden. Need user."))
    }

    @Test func anEleventhSubscriptionIsRefusedButRenewingOneIsNot() throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        for n in 1...10 { try f.subscribe(ann.token, "gcm", udid: "device-\(n)") }
        let reply = try f.call(.post, "/subscriptions.json", form: """
            notification_channel=gcm&push_token[environment]=development&push_token[client_identification_sequence]=t\
            &device[platform]=android&device[udid]=device-11
            """, token: ann.token)
        #expect(reply.status == 422 && reply.text.contains("at most 10 subscriptions"), "\(reply.text)")
        #expect(try f.api.push.subscriptions(userId: ann.id).count == 10)
        try f.subscribe(ann.token, "gcm", udid: "device-3", environment: "production")
        #expect(try f.api.push.subscriptions(userId: ann.id).count == 10)
    }
}

@Suite("REST push events")
struct PushEventRESTTests {
    /// The JavaScript SDK's own event: gcm, to a user id, the message Base64 of text; the
    /// service answers it in GCM's form, the text CGI-escaped and Base64-encoded again.
    @Test func aGCMEventOfTextIsKeptInGCMsFormAndDeliveredRecordedAndLogged() throws {
        let f = try PushFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        let annPhone = try f.subscribe(ann.token, "gcm", udid: "jasmineUnique")
        try f.subscribe(bob.token, "gcm", udid: "bob-phone", environment: "production")
        let reply = try f.call(.post, "/events.json", json: """
            {"event":{"notification_type":"push","push_type":"gcm","user":{"ids":[\(ann.id),\(bob.id)]},
             "environment":"development","message":"\(base64("hello QuickBlox!"))"}}
            """, token: ann.token)
        #expect(reply.status == 200, "\(reply.text)")
        let event = PushFixture.event(reply)
        #expect(event["message"] as? String == "data.message=aGVsbG8rUXVpY2tCbG94JTIx")
        #expect(event["event_type"] as? String == "one_shot" && event["occured_count"] as? Int == 1 && event["active"] as? Bool == false)
        #expect((event["notification_channel"] as? [String: Any])?["name"] as? String == "gcm")
        #expect((event["subscribers_selector"] as? [String: Any])?["user_ids"] as? [Int] == [ann.id, bob.id])
        let id = try #require(event["id"] as? Int)

        // Only Ann's device is in the development environment.
        let deliveries = try f.deliveries()
        #expect(deliveries.count == 1)
        let delivery = try #require(deliveries.first)
        #expect(delivery.eventId == id && delivery.userId == ann.id && delivery.subscriptionId == annPhone)
        #expect(delivery.device.channel == .gcm && delivery.device.udid == "jasmineUnique" && delivery.device.token == "token-jasmineUnique")
        #expect(delivery.payload == #"{"collapse_key":"event\#(id)","data":{"message":"hello+QuickBlox%21"}}"#)
        #expect(delivery.deliveredAt == f.clock.now)
        let line = try #require(f.log.first { $0.hasPrefix("push: event \(id) delivered") })
        #expect(line.contains("user \(ann.id)") && line.contains("subscription \(annPhone)") && line.contains("\"jasmineUnique\"")
                && line.contains("gcm, development") && line.hasSuffix(#": {"collapse_key":"event\#(id)","data":{"message":"hello+QuickBlox%21"}}"#),
                "\(line)")
    }

    @Test func tagsPickAnyAllAndExcludeAndExternalIdsPickTheirUsers() throws {
        let f = try PushFixture()
        let ann = try f.user("ann", tags: ["man", "car"]), bob = try f.user("bob", tags: ["man"])
        let cat = try f.user("cat", tags: ["car", "ugly"]), dan = try f.user("dan", externalId: 4242)
        let eve = try f.user("eve", tags: ["MAN", "car"])
        for (user, udid) in [(ann, "a"), (bob, "b"), (cat, "c"), (dan, "d"), (eve, "e")] { try f.subscribe(user.token, "gcm", udid: udid) }
        func recipients(_ selector: String) throws -> [Int] {
            let before = try f.deliveries().count
            let reply = try f.call(.post, "/events.json", json: """
                {"event":{"notification_type":"push","environment":"development","message":"\(base64("hi"))",\(selector)}}
                """, token: ann.token)
            #expect(reply.status == 200, "\(selector): \(reply.text)")
            return try f.deliveries().dropFirst(before).map(\.userId)
        }
        #expect(try recipients(#""user":{"tags":{"any":"good,bad,ugly"}}"#) == [cat.id])
        #expect(try recipients(#""user":{"tags":{"all":["man","car"]}}"#) == [ann.id, eve.id], "every one of the tags, case aside")
        #expect(try recipients(#""user":{"tags":{"any":"man","exclude":"car"}}"#) == [bob.id])
        #expect(try recipients(#""user":{"tags":{"exclude":"man,car"}}"#) == [dan.id], "only exclude: everyone else")
        #expect(try recipients(#""external_user":{"ids":"4242"}"#) == [dan.id])
        #expect(try recipients(#""user":{"ids":"\#(bob.id)","tags":{"any":"ugly"}},"external_user":{"ids":[4242]}"#)
                == [bob.id, cat.id, dan.id], "the lists and the tags together")
        #expect(try recipients(#""user":{"ids":[\#(ann.id),\#(bob.id)],"tags":{"exclude":"car"}}"#) == [bob.id])
    }

    @Test func aUniversalPushReachesEveryPushChannelInEachPlatformsForm() throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        try f.subscribe(ann.token, "apns", udid: "iphone", platform: "ios")
        try f.subscribe(ann.token, "gcm", udid: "pixel")
        try f.subscribe(ann.token, "apns_voip", udid: "iphone", platform: "ios")
        try f.subscribe(ann.token, "email", udid: "iphone", platform: "ios")
        // Custom parameters: message, the ios_ keys into aps (ignored by GCM), others as they are.
        let text = #"{"message":"Message received from Bob","ios_badge":5,"ios_sound":"mysound.wav","user_id":"234"}"#
        let reply = try f.call(.post, "/events.json",
                               form: "event[notification_type]=push&event[environment]=development&event[user][ids]=\(ann.id)"
                                   + "&event[message]=\(base64(text).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                               token: ann.token)
        #expect(reply.status == 200, "\(reply.text)")
        let event = PushFixture.event(reply)
        #expect(event["message"] as? String == base64(text), "a universal message is kept as given")
        #expect(event["notification_channel"] is NSNull)
        let id = try #require(event["id"] as? Int)
        let payloads = Dictionary(uniqueKeysWithValues: try f.deliveries().map { ($0.device.channel, $0.payload) })
        #expect(Set(payloads.keys) == [.apns, .gcm], "not VoIP, not mail")
        #expect(payloads[.apns] == #"{"aps":{"alert":"Message received from Bob","badge":5,"sound":"mysound.wav"},"user_id":"234"}"#)
        #expect(payloads[.gcm] == #"{"collapse_key":"event\#(id)","data":{"message":"Message+received+from+Bob","user_id":"234"}}"#)
    }

    @Test func anAPNsEventTakesItsOwnPayloadOrTextAndMailTakesText() throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        try f.subscribe(ann.token, "apns", udid: "iphone", platform: "ios")
        try f.subscribe(ann.token, "email", udid: "iphone", platform: "ios")
        let payload = #"{"aps":{"alert":"Hello, World!","badge":777,"sound":"default"}}"#
        for (message, expected) in [("payload=" + base64(payload), payload), (base64("plain text"), #"{"aps":{"alert":"plain text"}}"#)] {
            let reply = try f.call(.post, "/events.json", json: """
                {"event":{"notification_type":"push","push_type":"apns","environment":"development","user":{"ids":"\(ann.id)"},
                 "message":"\(message)"}}
                """, token: ann.token)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(PushFixture.event(reply)["message"] as? String == "payload=" + base64(expected))
            #expect(try f.deliveries().last?.payload == expected)
        }
        let mail = try f.call(.post, "/events.json", json: """
            {"event":{"notification_type":"email","environment":"development","user":{"ids":"\(ann.id)"},"message":"\(base64("Your report"))"}}
            """, token: ann.token)
        #expect(mail.status == 200, "\(mail.text)")
        #expect((PushFixture.event(mail)["notification_channel"] as? [String: Any])?["name"] as? String == "email")
        let last = try f.deliveries().last
        #expect(last?.device.channel == .email && last?.payload == "Your report")
    }

    @Test(arguments: [
        // (the event's JSON after "event":, status, the errors' JSON)
        (#"{"notification_type":"push","push_type":"gcm","environment":"development","user":{"ids":"USER"},"message":"aGk="}"#,
         422, #"{"base":["No recipients. At least one user should be subscribed for 'gcm' (through SDK or REST API)"]}"#),
        (#"{"notification_type":"push","environment":"production","user":{"ids":"USER"},"message":"aGk="}"#,
         422, #"["No one can receive the message"]"#),
        (#"{"notification_type":"email","environment":"development","user":{"ids":"USER"},"message":"aGk="}"#,
         422, #"{"base":["No recipients. At least one user should be subscribed for E-mail (through SDK or REST API)"]}"#),
        (#"{"notification_type":"push","environment":"development","message":"aGk="}"#,
         422, #"{"base":["No recipients: give event[user][ids], event[external_user][ids] or event[user][tags]"]}"#),
        (#"{"notification_type":"sms","environment":"development","user":{"ids":"USER"},"message":"aGk="}"#,
         422, #"{"notification_type":["is not included in the list: sms (push or email)"]}"#),
        (#"{"notification_type":"push","user":{"ids":"USER"},"message":"aGk="}"#, 422, #"{"environment":["can't be blank"]}"#),
        (#"{"notification_type":"push","environment":"development","user":{"ids":"USER,x"},"message":"aGk="}"#,
         422, #"{"user[ids]":["must be numbers separated by commas: x"]}"#),
        (#"{"notification_type":"push","environment":"development","user":{"ids":"USER"}}"#, 422, #"{"message":["can't be blank"]}"#),
        (#"{"notification_type":"push","environment":"development","user":{"ids":"USER"},"message":"not base64!"}"#,
         422, #"{"message":["must be Base64-encoded UTF-8 text"]}"#),
        (#"{"notification_type":"push","push_type":"apns","environment":"development","user":{"ids":"USER"},"message":"payload=bm90IGpzb24="}"#,
         422, #"{"message":["payload= must be followed by the Base64 of a JSON object"]}"#),
        (#"{"notification_type":"push","push_type":"gcm","environment":"development","user":{"ids":"USER"},"message":"data.title=aGk="}"#,
         422, #"{"message":["must be data.KEY=VALUE pairs joined by &, data.message first, each VALUE the Base64 of CGI-escaped text"]}"#),
        (#"{"notification_type":"push","environment":"development","user":{"ids":"USER"},"message":"aGk=","period":3600}"#,
         422, #"{"date":["can't be blank for a period_date event"],"period":["must be 86400, 604800, 2592000 or 31557600 (seconds)"]}"#),
        (#"{"notification_type":"push","environment":"development","user":{"ids":"USER"},"message":"aGk=","date":1600000000}"#,
         422, #"{"date":["can't be in the past for a fixed_date event"]}"#),
        (#"{"notification_type":"push","environment":"development","user":{"ids":"USER"},"message":"aGk=","event_type":"one_shot","date":1800000000}"#,
         422, #"{"date":["must be blank for a one_shot event (it occurs at once)"]}"#),
        (#"{"notification_type":"push","push_type":"apns","environment":"development","user":{"ids":"USER"},"message":"LARGE"}"#,
         413, #"{"message":["is too large for apns: a payload of 4120 bytes, at most 4096"]}"#),
    ])
    func aRefusedEventIsAnsweredAsDocumentedAndStoresNothing(event: String, status: Int, errors: String) throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        try f.subscribe(ann.token, "apns", udid: "iphone", platform: "ios")
        let body = event.replacingOccurrences(of: "USER", with: String(ann.id))
            .replacingOccurrences(of: "LARGE", with: base64(String(repeating: "x", count: 4100)))
        let reply = try f.call(.post, "/events.json", json: #"{"event":\#(body)}"#, token: ann.token)
        #expect(reply.status == status)
        #expect(reply.text == #"{"errors":\#(errors)}"#)
        #expect(try f.api.push.events(userId: ann.id, page: 1, perPage: 10).total == 0)
        #expect(try f.deliveries().isEmpty && f.log.isEmpty)
    }

    @Test func aFixedDateEventWaitsForItsDateAndAPeriodicOneRecursUntilItsEnd() throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        try f.subscribe(ann.token, "gcm", udid: "pixel")
        let start = Int(f.clock.now)
        var scheduleChanges = 0
        f.api.pushScheduleChanged = { scheduleChanges += 1 }
        let fixed = try f.call(.post, "/events.json", form: """
            event[notification_type]=push&event[environment]=development&event[user][ids]=\(ann.id)&event[message]=aGk%3D\
            &event[date]=\(start + 60)&event[name]=later
            """, token: ann.token)
        #expect(fixed.status == 200 && PushFixture.event(fixed)["event_type"] as? String == "fixed_date", "\(fixed.text)")
        let fixedId = try #require(PushFixture.event(fixed)["id"] as? Int)
        let periodic = try f.call(.post, "/events.json", form: """
            event[notification_type]=push&event[environment]=development&event[user][ids]=\(ann.id)&event[message]=aGk%3D\
            &event[date]=\(start + 120)&event[period]=86400&event[end_date]=\(start + 120 + 2 * 86400)
            """, token: ann.token)
        let periodicId = try #require(PushFixture.event(periodic)["id"] as? Int)
        #expect(scheduleChanges == 2 && f.api.deliverDueEvents() == start + 60 && f.log.isEmpty)
        func status(_ id: Int) throws -> [String: Any] {
            PushFixture.event(try f.call(.get, "/events/\(id)/status.json", token: ann.token))
        }
        #expect(try status(fixedId)["status"] as? String == "scheduled")

        f.clock.now = Double(start + 60)
        #expect(f.api.deliverDueEvents() == start + 120)
        #expect(try f.deliveries().map(\.eventId) == [fixedId])
        let sent = try status(fixedId)
        #expect(sent["status"] as? String == "sent" && sent["deliveries_count"] as? Int == 1 && sent["active"] as? Bool == false)
        #expect(sent["occured_count"] as? Int == 1 && sent["last_occurred_at"] as? String != nil)

        // Every period from its date; a day missed while stopped occurs once, then the next on time.
        f.clock.now = Double(start + 120)
        #expect(f.api.deliverDueEvents() == start + 120 + 86400)
        f.clock.now = Double(start + 120 + 2 * 86400 + 5)
        #expect(f.api.deliverDueEvents() == nil, "past its end")
        #expect(try f.deliveries().map(\.eventId) == [fixedId, periodicId, periodicId])
        let done = try status(periodicId)
        #expect(done["status"] as? String == "sent" && done["occured_count"] as? Int == 2 && done["active"] as? Bool == false)
    }

    @Test func anEventIsReadChangedMadeActiveAgainAndDeletedByItsOwnerOnly() throws {
        let f = try PushFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        try f.subscribe(bob.token, "gcm", udid: "pixel")
        let created = try f.call(.post, "/events.json", form: """
            event[notification_type]=push&event[push_type]=gcm&event[environment]=development&event[user][ids]=\(bob.id)\
            &event[message]=\(base64("first"))
            """, token: ann.token)
        let id = try #require(PushFixture.event(created)["id"] as? Int)
        #expect(try f.call(.get, "/events/\(id).json", token: ann.token).status == 200)
        for method: HTTPRequest.Method in [.get, .put, .delete] {
            #expect(try f.call(method, "/events/\(id).json", token: bob.token).status == 403, "\(method) by Bob")
            #expect(try f.call(method, "/events/9999.json", token: ann.token).status == 404, "\(method) of no event")
        }
        // A new message is checked and kept in GCM's form; active=true sends it once more.
        let changed = try f.call(.put, "/events/\(id).json", form: "event[message]=\(base64("second"))&event[active]=true&event[name]=again",
                                 token: ann.token)
        #expect(changed.status == 200, "\(changed.text)")
        let event = PushFixture.event(changed)
        #expect(event["message"] as? String == "data.message=" + base64("second") && event["name"] as? String == "again")
        #expect(event["occured_count"] as? Int == 2 && event["active"] as? Bool == false)
        #expect(try f.deliveries().map(\.payload).last?.contains(#""message":"second""#) == true)
        let refused = try f.call(.put, "/events/\(id).json", form: "event[message]=data.title%3DaGk%3D", token: ann.token)
        #expect(refused.status == 422 && (refused.errors as? [String: [String]])?["message"] != nil)
        #expect(try f.api.push.event(id: id)?.draft.message == "data.message=" + base64("second"), "the refused change stored nothing")
        #expect(try f.call(.put, "/events/\(id).json", form: "event[active]=maybe", token: ann.token).status == 422)

        let list = try f.call(.get, "/events.json", query: "page=1&per_page=25", token: ann.token)
        #expect(list.status == 200 && list.object["total_entries"] as? Int == 1)
        #expect((list.items.first?["event"] as? [String: Any])?["id"] as? Int == id)
        #expect(try f.call(.get, "/events.json", token: bob.token).object["total_entries"] as? Int == 0)

        let deleted = try f.call(.delete, "/events/\(id).json", token: ann.token)
        #expect(deleted.status == 200 && deleted.text.isEmpty)
        #expect(try f.call(.get, "/events/\(id).json", token: ann.token).status == 404)
        #expect(try f.deliveries().count == 2, "what was pushed stays on record")
    }

    @Test func aPeriodicEventStoppedByActiveFalseNoLongerOccurs() throws {
        let f = try PushFixture()
        let ann = try f.user("ann")
        try f.subscribe(ann.token, "gcm", udid: "pixel")
        let start = Int(f.clock.now)
        let created = try f.call(.post, "/events.json", form: """
            event[notification_type]=push&event[environment]=development&event[user][ids]=\(ann.id)&event[message]=aGk%3D\
            &event[date]=\(start + 10)&event[period]=604800
            """, token: ann.token)
        let id = try #require(PushFixture.event(created)["id"] as? Int)
        let stopped = try f.call(.put, "/events/\(id).json", form: "event[active]=false", token: ann.token)
        #expect(PushFixture.event(stopped)["active"] as? Bool == false)
        f.clock.now = Double(start + 700_000)
        #expect(f.api.deliverDueEvents() == nil && f.log.isEmpty)
        let status = PushFixture.event(try f.call(.get, "/events/\(id)/status.json", token: ann.token))
        #expect(status["status"] as? String == "inactive" && status["deliveries_count"] as? Int == 0)
    }
}

@Suite("REST push deliveries")
struct PushDeliveryListingTests {
    @Test func theDeliveriesAreListedWithTheAccountKeyByEventAndByUser() throws {
        let f = try PushFixture()
        let ann = try f.user("ann"), bob = try f.user("bob")
        try f.subscribe(ann.token, "gcm", udid: "a")
        try f.subscribe(bob.token, "apns", udid: "b", platform: "ios")
        for _ in 1...2 {
            _ = try f.call(.post, "/events.json", form: """
                event[notification_type]=push&event[environment]=development&event[user][ids]=\(ann.id),\(bob.id)&event[message]=aGk%3D
                """, token: ann.token)
        }
        func list(_ query: String?, key: String? = "sandbox-account-key") throws -> (Int, [String: Any]) {
            var headers: [String: String] = [:]
            if let key { headers["QB-Account-Key"] = key }
            let request = try RESTRequest(method: .get, path: "/sandbox/push_deliveries.json", headers: headers, query: query, body: [])
            let response = f.chat.router.handle(request)
            let object = (try? JSONSerialization.jsonObject(with: Data((response.body?.serialized ?? "").utf8))) as? [String: Any] ?? [:]
            return (response.status, object)
        }
        let (status, all) = try list(nil)
        #expect(status == 200 && all["total_entries"] as? Int == 4)
        let first = try #require((all["items"] as? [[String: Any]])?.first)
        #expect(first["event_id"] as? Int == 1 && first["user_id"] as? Int == ann.id && first["notification_channel"] as? String == "gcm")
        #expect((first["payload"] as? [String: Any])?["data"] as? [String: String] == ["message": "hi"], "the payload as JSON")
        #expect(try list("event_id=2").1["total_entries"] as? Int == 2)
        let bobs = try list("user_id=\(bob.id)&per_page=1&page=2").1["items"] as? [[String: Any]]
        #expect(bobs?.count == 1 && bobs?.first?["event_id"] as? Int == 2 && bobs?.first?["user_id"] as? Int == bob.id)
        #expect(try list("per_page=0").0 == 422)
        #expect(try list(nil, key: nil).0 == 401)
        #expect(try list(nil, key: "another-account").0 == 404)
    }
}
