import Foundation
import Testing
import TestSupport

/// `chatctl push`, `push send` and `push events` against the real sandbox (docs/protocol.md
/// §14): what a CI job testing its app's push path does, checked in the sandbox's record of
/// what it would have pushed.
@Suite(.serialized) struct PushEndToEndTests {
    let sandbox: SandboxProcess

    init() throws { sandbox = try SandboxProcess() }

    /// Subscribes `user`'s device as an app does, over REST.
    func subscribe(_ user: ChatUser, channel: String, platform: String, udid: String, environment: String = "development") throws {
        let token = try sandbox.createSession(login: user.login, password: ChatUser.password)
        let reply = try sandbox.response(method: "POST", path: "/subscriptions.json", params: [
            ("notification_channel", channel), ("push_token[environment]", environment),
            ("push_token[client_identification_sequence]", "token-\(udid)"), ("device[platform]", platform), ("device[udid]", udid),
        ], token: token)
        guard reply.status == 201 else { throw TestSupportError("subscribe: \(reply.status) \(reply.body)") }
    }

    /// The sandbox's record of deliveries, oldest first.
    func deliveries(event: Int? = nil) throws -> [[String: Any]] {
        let reply = try sandbox.send(method: "GET", path: "/sandbox/push_deliveries.json", query: event.map { "event_id=\($0)" },
                                     headers: [("QB-Account-Key", sandbox.config["accountKey"] as? String ?? "")])
        return (reply.json as? [String: Any])?["items"] as? [[String: Any]] ?? []
    }

    static func fields(_ text: String) -> [[String]] { PipeOutputEndToEndTests.fields(text) }

    @Test func aPushToUsersByLoginIdAndFullNameReachesEachDeviceInItsForm() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox), dave = try ChatUser("dave", sandbox: sandbox)
        #expect(try dave.run(["profile", "set", "--full-name", "Dave Quincy Push"]).status == 0)
        try subscribe(bob, channel: "gcm", platform: "android", udid: "bob-pixel")
        try subscribe(carol, channel: "apns", platform: "ios", udid: "carol-iphone")
        try subscribe(dave, channel: "gcm", platform: "android", udid: "dave-pixel")
        try subscribe(dave, channel: "apns", platform: "ios", udid: "dave-iphone", environment: "production")

        let sent = try alice.run(["push", "send", "Build", "142 is ready", "--to", "@\(bob.login),\(carol.id)", "--to", "dave quincy push",
                                  "--json"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let event = try #require(jsonObject(sent.stdout), "\(sent.stdout)")
        let id = try #require(event["id"] as? Int)
        #expect(event["message"] as? String == Data("Build 142 is ready".utf8).base64EncodedString())
        #expect(event["event_type"] as? String == "one_shot" && event["environment"] as? String == "development")
        #expect((event["subscribers_selector"] as? [String: Any])?["user_ids"] as? [Int] == [bob.id, carol.id, dave.id])

        // Every development device of theirs, each in its service's form; not Dave's production one.
        let made = try deliveries(event: id)
        #expect(made.map { $0["udid"] as? String } == ["bob-pixel", "carol-iphone", "dave-pixel"])
        let gcm = made[0]["payload"] as? [String: Any], apns = made[1]["payload"] as? [String: Any]
        #expect((gcm?["data"] as? [String: String])?["message"] == "Build+142+is+ready")
        #expect((apns?["aps"] as? [String: Any])?["alert"] as? String == "Build 142 is ready")
        #expect(sandbox.stderr.contains("push: event \(id) delivered to user \(bob.id)"))

        // On a terminal or not, without --json: one line; in a pipe, the event's fields.
        let piped = try alice.run(["push", "send", "again", "--to", bob.login])
        #expect(piped.status == 0, "\(piped.stderr)")
        let row = try #require(Self.fields(piped.stdout).first)
        #expect(Self.fields(piped.stdout).count == 1 && row.count == 8, "\(piped.stdout)")
        #expect(Int(row[0]) == id + 1 && row[1] == "one_shot" && row[2] == "all" && row[3] == "development" && row[4] == "" && row[5] == "1")

        // Bob sees his own device.
        let devices = try bob.run(["push"])
        #expect(devices.status == 0 && Self.fields(devices.stdout).map { Array($0.dropFirst()) } == [["gcm", "android", "bob-pixel", ""]],
                "\(devices.stdout)\(devices.stderr)")
        let none = try alice.run(["push", "--json"])
        #expect(none.status == 0 && none.stdout == "[]\n", "\(none.stdout)\(none.stderr)")
    }

    @Test func tagsAChannelDataAndProductionMakeOnePlatformsPushAndEventsShowHowItWent() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        #expect(try bob.run(["profile", "set", "--tags", "vip"]).status == 0)
        #expect(try carol.run(["profile", "set", "--tags", "vip,churned"]).status == 0)
        try subscribe(bob, channel: "gcm", platform: "android", udid: "bob-prod", environment: "production")
        try subscribe(bob, channel: "apns", platform: "ios", udid: "bob-ios", environment: "production")
        try subscribe(carol, channel: "gcm", platform: "android", udid: "carol-prod", environment: "production")

        let sent = try alice.run(["push", "send", "Sale today", "--tag", "vip", "--exclude-tag", "churned", "--channel", "gcm",
                                  "--data", "order=12", "--production", "--name", "sale"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let row = try #require(Self.fields(sent.stdout).first)
        #expect(Array(row[1...5]) == ["one_shot", "gcm", "production", "", "1"] && row[7] == "sale", "\(row)")
        let id = try #require(Int(row[0]))
        let made = try deliveries(event: id)
        #expect(made.map { $0["udid"] as? String } == ["bob-prod"])
        #expect((made.first?["payload"] as? [String: Any])?["data"] as? [String: String] == ["message": "Sale+today", "order": "12"])

        // The list, newest first, in a pipe and as JSON; then one event's status.
        #expect(try alice.run(["push", "send", "second", "--to", "@\(bob.login)", "--channel", "apns", "--production"]).status == 0)
        let list = try alice.run(["push", "events"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = Self.fields(list.stdout)
        #expect(rows.map(\.count) == [8, 8] && rows.map { $0[0] } == [String(id + 1), String(id)] && rows[0][2] == "apns", "\(list.stdout)")
        #expect(rows[1][6].range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil, "ISO 8601 UTC: \(rows[1][6])")
        let json = try alice.run(["push", "events", "--json", "-n", "1"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json.stdout)")
        #expect(array.count == 1 && array[0]["id"] as? Int == id + 1 && json.stderr.contains("page 1 of 2 (2 events); the next: --page 2"))

        let status = try alice.run(["push", "events", String(id)])
        #expect(status.status == 0 && Self.fields(status.stdout).first.map { Array($0.suffix(2)) } == ["sent", "1"], "\(status.stdout)")
        let statusJSON = try #require(jsonObject(try alice.run(["push", "events", String(id), "--json"]).stdout))
        #expect(statusJSON["status"] as? String == "sent" && statusJSON["deliveries_count"] as? Int == 1 && statusJSON["name"] as? String == "sale")
        #expect(try bob.run(["push", "events"]).stderr == "chatctl: no push events\n")
    }

    @Test(arguments: [
        (["push", "send", "hi"], 2, "say who gets it"),
        (["push", "send", "--to", "@BOB"], 2, "TEXT"),
        (["push", "send", "  ", "--to", "@BOB"], 2, "the notification's text is empty"),
        (["push", "send", "hi", "--to", "@nobody-here"], 2, "no user with login 'nobody-here'"),
        (["push", "send", "hi", "--to", "999999"], 2, "no user with id 999999"),
        (["push", "send", "hi", "--to", "@BOB", "--channel", "sms"], 2, "--channel"),
        (["push", "send", "hi", "--to", "@BOB", "--data", "novalue"], 2, "--data takes KEY=VALUE, not 'novalue'"),
        (["push", "send", "hi", "--to", "@BOB", "--channel", "email", "--data", "a=b"], 2, "mail takes TEXT only"),
        (["push", "send", "hi", "--to", "@BOB", "--production"], 1, "No one can receive the message"),
        (["push", "send", "hi", "--to", "@BOB", "--channel", "apns"], 1, "No recipients. At least one user should be subscribed for 'apns'"),
        (["push", "events", "999999"], 2, "no push event 999999"),
        (["push", "events", "twelve"], 2, "ID"),
        (["push", "events", "1", "--page", "2"], 2, "with ID there is one"),
    ])
    func badInputIsOneLineWithItsExitCodeAndSendsNothing(arguments: [String], status: Int32, says: String) throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        try subscribe(bob, channel: "gcm", platform: "android", udid: "bob-dev")
        let before = try deliveries().count
        let run = try alice.run(arguments.map { $0.replacingOccurrences(of: "BOB", with: bob.login) })
        #expect(run.status == status, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains(says), "\(arguments): \(run.stderr)")
        if status == 1 {
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("has a device subscribed"),
                    "one line, with what to do: \(run.stderr)")
        }
        #expect(try deliveries().count == before, "nothing was pushed")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }
}
