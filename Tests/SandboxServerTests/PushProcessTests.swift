// Push notifications and address books in the real chatctl-sandbox (docs/protocol.md §14, §15):
// kept in `--db` across a restart, a dated event delivered by the sandbox's own timer, each
// delivery on a log line and listed by the sandbox's route for developers.
import Foundation
import Testing
import TestSupport

@Suite struct PushProcessTests {
    static func json(_ response: SandboxHTTPResponse) -> [String: Any] { response.json as? [String: Any] ?? [:] }

    @Test func subscriptionsEventsDeliveriesAndAddressBooksOutliveARestartOnTheSameDatabase() throws {
        let directory = try TemporaryDirectory()
        let arguments = ["--no-chat", "--db", directory.file("push.sqlite"), "--password-iterations", "1000"]
        var sandbox = try SandboxProcess(arguments: arguments)
        let ann = try signUpUser(on: sandbox, login: "annpush", password: "ann-push-secret")
        var token = try sandbox.createSession(login: "annpush", password: "ann-push-secret")
        let subscribed = try sandbox.response(method: "POST", path: "/subscriptions.json", params: [
            ("notification_channel", "apns"), ("push_token[environment]", "development"),
            ("push_token[client_identification_sequence]", "apns-token-1"), ("device[platform]", "ios"), ("device[udid]", "iphone-1"),
        ], token: token)
        #expect(subscribed.status == 201, "\(subscribed.body)")
        let book = try sandbox.send(method: "POST", path: "/address_book.json",
                                    body: #"{"contacts":[{"name":"Bob","phone":"1000000002"}],"udid":"iphone-1"}"#,
                                    contentType: "application/json", token: token)
        #expect(book.body == #"{"created":1,"updated":0,"deleted":0}"#)
        let payload = #"{"aps":{"alert":"now"}}"#
        let now = try sandbox.send(method: "POST", path: "/events.json", body: """
            {"event":{"notification_type":"push","push_type":"apns","environment":"development","user":{"ids":[\(ann)]},
             "message":"payload=\(Data(payload.utf8).base64EncodedString())"}}
            """, contentType: "application/json", token: token)
        #expect(now.status == 200, "\(now.body)")
        let line = try sandbox.waitForLog(containing: "push: event 1 delivered to user \(ann)")
        #expect(line.contains("subscription 1 (apns, development, ios device \"iphone-1\")") && line.contains(": \(payload)"), "\(line)")
        // Due in two seconds: the sandbox's timer delivers it, or, stopped meanwhile, its next start.
        let later = try sandbox.send(method: "POST", path: "/events.json", body: """
            {"event":{"notification_type":"push","environment":"development","user":{"ids":"\(ann)"},"name":"later",
             "message":"\(Data("later".utf8).base64EncodedString())","date":\(Int(Date().timeIntervalSince1970) + 2)}}
            """, contentType: "application/json", token: token)
        #expect(Self.json(later)["event"].map { ($0 as? [String: Any])?["event_type"] as? String } == "fixed_date", "\(later.body)")
        #expect(sandbox.stop() == 0)

        sandbox = try SandboxProcess(arguments: arguments)
        defer { _ = sandbox.stop() }
        token = try sandbox.createSession(login: "annpush", password: "ann-push-secret")
        let listed = try sandbox.response(method: "GET", path: "/subscriptions.json", token: token)
        #expect(listed.status == 200 && listed.body.contains(#""udid":"iphone-1""#), "\(listed.body)")
        let kept = try sandbox.response(method: "GET", path: "/address_book.json", params: [("udid", "iphone-1")], token: token)
        #expect(kept.body == #"[{"name":"Bob","phone":"1000000002"}]"#)
        _ = try sandbox.waitForLog(containing: "push: event 2 delivered to user \(ann)")
        let events = try sandbox.response(method: "GET", path: "/events.json", token: token)
        #expect(Self.json(events)["total_entries"] as? Int == 2)

        let deliveries = try sandbox.send(method: "GET", path: "/sandbox/push_deliveries.json",
                                          headers: [("QB-Account-Key", sandbox.config["accountKey"] as? String ?? "")])
        let items = try #require(Self.json(deliveries)["items"] as? [[String: Any]], "\(deliveries.body)")
        #expect(items.map { $0["event_id"] as? Int } == [1, 2])
        #expect(items.first?["client_identification_sequence"] as? String == "apns-token-1")
        #expect((items.last?["payload"] as? [String: Any]).flatMap { ($0["aps"] as? [String: Any])?["alert"] as? String } == "later")
        let status = try sandbox.response(method: "GET", path: "/events/2/status.json", token: token)
        #expect((Self.json(status)["event"] as? [String: Any])?["status"] as? String == "sent", "\(status.body)")

        // One made while the sandbox runs is its timer's to deliver, when the date comes.
        let date = Int(Date().timeIntervalSince1970) + 1
        _ = try sandbox.send(method: "POST", path: "/events.json", body: """
            {"event":{"notification_type":"push","environment":"development","user":{"ids":"\(ann)"},
             "message":"\(Data("timer".utf8).base64EncodedString())","date":\(date)}}
            """, contentType: "application/json", token: token)
        let timed = try sandbox.waitForLog(containing: "push: event 3 delivered to user \(ann)")
        #expect(Date().timeIntervalSince1970 >= Double(date), "\(timed)")
    }
}
