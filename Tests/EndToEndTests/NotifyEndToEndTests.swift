import Foundation
import Testing
import TestSupport

/// End to end against the real sandbox: `listen --notify` through a session bus and
/// a stub notification service (NotificationServiceStub), `users`' PRESENCE and `--online`,
/// and `dialogs mute --for`, whose end chatctl keeps and acts on.
@Suite(.serialized) struct NotifyEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    func createdID(_ result: ProcessResult) throws -> String {
        try #require(jsonObject(result.stdout)?["_id"] as? String, "stderr: \(result.stderr)")
    }

    // MARK: listen --notify

    /// A message from someone else notifies (its markup made text); our own from another
    /// device does not, nor one in a muted dialog.
    @Test func othersMessagesNotifyOwnAndMutedOnesDoNot() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "before listening"]).status == 0)
        let ops = uniqueLogin("ops")
        _ = try createdID(try alice.run(["dialogs", "create", "--group", ops, "--with", "@" + bob.login, "--json"]))
        #expect(try bob.run(["dialogs", "mute", ops]).status == 0)

        let bus = try NotificationServiceStub()
        let listener = try bus.background(bob, ["listen", "--notify", "--count", "2", "--timeout", "120s"])
        try listener.waitUntilListening()
        #expect(try bob.run(["send", "--via", "chat", "@" + alice.login, "from my other device"]).status == 0)
        #expect(try alice.run(["send", ops, "news in a muted group"]).status == 0)
        #expect(try alice.run(["send", "@" + bob.login, "<b>hi</b> & <a href=\"https://x.example\">bye</a>\nsecond line"]).status == 0)
        let heard = listener.finish(timeout: 60)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        for text in ["from my other device", "news in a muted group", "second line"] {
            #expect(heard.stdout.contains(text), "listen heard it: \(heard.stdout)")
        }
        #expect(!heard.stderr.contains("--notify"), "stderr: \(heard.stderr)")
        let posted = try bus.notifications()
        #expect(posted.count == 1, "\(posted)")
        #expect(posted.first?["summary"] == alice.login)
        #expect(posted.first?["body"] == "&lt;b&gt;hi&lt;/b&gt; &amp; &lt;a href=\"https://x.example\"&gt;bye&lt;/a&gt;\nsecond line")
        #expect(posted.first?["app_name"] == "chatctl")
        #expect(posted.first?["category"] == "im.received")
    }

    /// No session bus: one line says so, listen goes on; libnotify is not even loaded.
    @Test func withoutASessionBusOneLineAndListenGoesOn() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        let listener = try bob.cli.background(["listen", "--notify", "--count", "1", "--timeout", "120s"],
                                              environment: ["DBUS_SESSION_BUS_ADDRESS": "", "LD_DEBUG": "libs"])
        try listener.waitUntilListening()
        #expect(try alice.run(["send", "@" + bob.login, "still heard"]).status == 0)
        let heard = listener.finish(timeout: 60)
        #expect(heard.status == 0, "stderr: \(heard.stderr.suffix(2000))")
        #expect(heard.stdout.contains("still heard"))
        let notes = heard.stderr.split(separator: "\n").filter { $0.hasPrefix("chatctl: ") && $0.contains("notif") }
        #expect(notes == ["chatctl: --notify: no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set); listening without desktop notifications"])
        #expect(!heard.stderr.contains("libnotify.so"), "libnotify is loaded only when a bus can take its notifications")
    }

    /// A machine without libnotify (the library made empty for chatctl alone): one line says
    /// so and how to get it, and listen goes on.
    @Test func withoutLibnotifyOneLineAndListenGoesOn() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        let library = URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/libnotify.so.4").resolvingSymlinksInPath().path
        let bus = try NotificationServiceStub()
        let listener = try bus.background(bob, ["listen", "--notify", "--count", "1", "--timeout", "120s"], hiding: library)
        try listener.waitUntilListening()
        #expect(try alice.run(["send", "@" + bob.login, "still heard"]).status == 0)
        let heard = listener.finish(timeout: 60)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        #expect(heard.stdout.contains("still heard"))
        let note = heard.stderr.split(separator: "\n").filter { $0.contains("--notify") }
        #expect(note.count == 1 && note[0].hasPrefix("chatctl: --notify: libnotify cannot be loaded (") && note[0].contains("install libnotify4")
                    && note[0].hasSuffix("; listening without desktop notifications"),
                "stderr: \(heard.stderr)")
        #expect(try bus.notifications().isEmpty)
    }

    /// A session bus without a notification service: one line (libnotify's own warning kept
    /// off stderr), listen goes on; libnotify was loaded then, once running, not at start.
    @Test func withoutANotificationServiceOneLineAndListenGoesOn() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        let bus = try NotificationServiceStub(service: false)
        let listener = try bus.background(bob, ["listen", "--notify", "--count", "1", "--timeout", "120s"])
        try listener.waitUntilListening()
        #expect(try alice.run(["send", "@" + bob.login, "still heard"]).status == 0)
        let heard = listener.finish(timeout: 60)
        #expect(heard.status == 0, "stderr: \(heard.stderr)")
        #expect(heard.stdout.contains("still heard"))
        let lines = heard.stderr.split(separator: "\n").map(String.init)
        let note = lines.filter { $0.contains("--notify") }
        #expect(note.count == 1 && note[0].hasPrefix("chatctl: --notify: no notification service answers on the D-Bus session (")
                    && note[0].contains("org.freedesktop.Notifications"),
                "stderr: \(heard.stderr)")
        #expect(note.first?.hasSuffix("; listening without desktop notifications") == true)
        #expect(!heard.stderr.contains("WARNING"), "GLib's own warning is not printed: \(heard.stderr)")
        #expect(try bus.notifications().isEmpty)

        // Start-up never loads libnotify (nor the GLib it brings).
        let (version, loaded, _) = try StartupLibrariesTests.loadedLibraries(bob, ["--version"])
        #expect(version.status == 0)
        #expect(!loaded.contains { $0.hasPrefix("libnotify.") || $0.hasPrefix("libgio-") }, "\(loaded.sorted())")
    }

    // MARK: users

    /// Bob is online (listening), Carol was (a listen that ended, closing its stream), Eve
    /// never was, and neither was Dave, who shares no dialog with Alice and is told of all the
    /// same (the sandbox answers last activity about any user): online, last seen, offline, offline.
    @Test func usersShowWhoIsOnlineWasOnlineOrNeverWas() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox), dave = try ChatUser("dave", sandbox: sandbox)
        let eve = try ChatUser("eve", sandbox: sandbox)
        let team = uniqueLogin("team")
        _ = try createdID(try alice.run(["dialogs", "create", "--group", team, "--with", "@\(bob.login),@\(carol.login),@\(eve.login)", "--json"]))
        let carolListens = try carol.cli.background(["listen", "--count", "1", "--timeout", "120s"])
        try carolListens.waitUntilListening()
        #expect(try alice.run(["send", team, "standup?"]).status == 0)
        #expect(carolListens.finish(timeout: 60).status == 0)
        // Her stream's end reaches the server on its own time: the signal is the server saying so.
        try waitUntil("Carol seen leaving", timeout: 30, every: 0.1) {
            let asked = try alice.run(["users", "--json", "@" + carol.login])
            return (try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [[String: Any]])?.first?["presence"] as? String == "offline"
        }
        let listener = try bob.cli.background(["listen", "--count", "1", "--timeout", "120s"])
        try listener.waitUntilListening()

        let listed = try alice.run(["users", "--json", "--per-page", "100"])
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        #expect(listed.stderr.isEmpty, "stderr: \(listed.stderr)")
        let users = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        func user(_ who: ChatUser) -> [String: Any]? { users.first { $0["id"] as? Int == who.id } }
        #expect(user(bob)?["presence"] as? String == "online")
        #expect(user(bob)?["login"] as? String == bob.login, "the server's object, keys added")
        #expect(user(carol)?["presence"] as? String == "offline")
        let seen = try #require(user(carol)?["last_seen"] as? Int)
        #expect(abs(seen - Int(Date().timeIntervalSince1970)) < 600)
        #expect(user(eve)?["presence"] as? String == "offline" && user(eve)?["last_seen"] is NSNull)
        #expect(user(dave)?["presence"] as? String == "offline" && user(dave)?["last_seen"] is NSNull, "no shared dialog, told all the same")

        let table = try alice.run(["users", "--per-page", "100"])
        #expect(table.status == 0)
        // In a pipe: tab-separated rows, presence the sixth field.
        let rows = table.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        func presence(_ user: ChatUser) -> String? { rows.first { $0.count == 6 && $0[0] == String(user.id) }?[5] }
        #expect(presence(bob) == "online", "\(table.stdout)")
        #expect(presence(carol)?.hasPrefix("last seen ") == true)
        #expect(presence(eve) == "offline")
        #expect(presence(dave) == "offline")

        let online = try alice.run(["users", "--online"])
        #expect(online.status == 0, "stderr: \(online.stderr)")
        #expect(online.stdout.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) } == [String(bob.id)],
                "\(online.stdout)")
        let onlineQuery = try alice.run(["users", "--online", "--json", carol.login])
        #expect(onlineQuery.stdout == "[]\n" && onlineQuery.stderr.contains("no users online among those found"), "\(onlineQuery.stderr)")

        let notAsked = try alice.run(["users", "--offline", "--json", "@" + bob.login])
        #expect((try JSONSerialization.jsonObject(with: Data(notAsked.stdout.utf8)) as? [[String: Any]])?.first?["presence"] is NSNull)
        let both = try alice.run(["users", "--online", "--offline"])
        #expect(both.status == 2 && both.stderr.contains("--online") && both.stdout.isEmpty)

        #expect(try alice.run(["send", "@" + bob.login, "bye"]).status == 0)
        #expect(listener.finish(timeout: 60).status == 0)
    }

    /// Chat out of reach: the list still comes, PRESENCE blank, one line on stderr, exit 0.
    @Test func usersWithoutChatListsAndSaysWhy() throws {
        let directory = try TemporaryDirectory(prefix: "chatctl-nochat")
        let config = directory.file("nochat.json")
        try ProxiedSandbox.writeConfig(sandbox.config, api: sandbox.apiEndpoint, chat: "xmpp://127.0.0.1:1", to: config)
        let alice = try ChatUser("alice", configPath: config), bob = try ChatUser("bob", configPath: config)
        #expect(try alice.run(["dialogs", "create", "--private", "@" + bob.login]).status == 0)
        let result = try alice.run(["users", "--per-page", "100"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(bob.login))
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("chatctl: who is online is not shown: "), "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("online") && !result.stdout.contains("offline"))
    }

    // MARK: dialogs mute --for

    func serverEnabled(_ user: ChatUser, _ dialog: String) throws -> Int? {
        let token = try sandbox.createSession(login: user.login, password: ChatUser.password)
        let r = try sandbox.response(method: "GET", path: "/chat/Dialog/\(dialog)/notifications.json", token: token)
        return ((r.json as? [String: Any])?["notifications"] as? [String: Any])?["enabled"] as? Int
    }

    func listed(_ user: ChatUser, _ id: String, offline: Bool = false) throws -> [String: Any]? {
        let result = try user.run(["dialogs", "--json"] + (offline ? ["--offline"] : []))
        let dialogs = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return dialogs.first { $0["_id"] as? String == id }
    }

    /// The mute's end, moved into the past in the cache (as if 8 hours had gone by).
    func endMute(_ user: ChatUser, _ id: String) throws {
        let path = try user.run(["cache"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try runProcess("/usr/bin/sqlite3", [path, "UPDATE dialogs SET muted_until = unixepoch() - 1 WHERE id = '\(id)'"])
        #expect(result.status == 0, "sqlite3: \(result.stderr)")
    }

    @Test func aMuteForAWhileEndsAtTheNextLook() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let id = try createdID(try alice.run(["dialogs", "create", "--private", "@" + bob.login, "--json"]))
        let muted = try alice.run(["dialogs", "mute", "@" + bob.login, "--for", "8h"])
        #expect(muted.status == 0, "stderr: \(muted.stderr)")
        #expect(muted.stderr.hasPrefix("chatctl: muted the private dialog with "), "\(muted.stderr)")
        #expect(muted.stderr.contains(" until 20"), "\(muted.stderr)")
        #expect(try serverEnabled(alice, id) == 0)
        let until = try #require(try listed(alice, id)?["muted_until"] as? Int)
        #expect(abs(until - (Int(Date().timeIntervalSince1970) + 8 * 3600)) < 120)
        let table = try alice.run(["dialogs"])
        #expect(table.stdout.contains("muted until "), "\(table.stdout)")
        #expect(try alice.run(["dialogs", "show", id]).stdout.contains("Muted:     yes, until 20"))

        try endMute(alice, id)
        #expect(try listed(alice, id, offline: true)?["muted"] as? Bool == true, "offline: nothing is undone")
        #expect(try listed(alice, id)?["muted"] as? Bool == false, "dialogs unmuted it")
        #expect(try serverEnabled(alice, id) == 1)
        #expect(try listed(alice, id, offline: true)?["muted_until"] is NSNull)

        // listen looks too, before it connects.
        #expect(try alice.run(["dialogs", "mute", id, "--for", "1h"]).status == 0)
        try endMute(alice, id)
        let listener = try alice.cli.background(["listen", "--count", "1", "--timeout", "120s"])
        try listener.waitUntilListening()
        #expect(try serverEnabled(alice, id) == 1)
        #expect(try bob.run(["send", "@" + alice.login, "unmuted"]).status == 0)
        #expect(listener.finish(timeout: 60).status == 0)

        // Muted for good, then unmuted: no end is left behind.
        #expect(try alice.run(["dialogs", "mute", id, "--for", "1h"]).status == 0)
        let forGood = try alice.run(["dialogs", "mute", id, "--json"])
        #expect(jsonObject(forGood.stdout)?["muted_until"] is NSNull, "a mute without --for replaces one with")
        #expect(try alice.run(["dialogs", "show", id]).stdout.contains("Muted:     yes\n"))
        #expect(try alice.run(["dialogs", "mute", id, "--for", "2h"]).status == 0)
        let unmuted = try alice.run(["dialogs", "unmute", id, "--json"])
        #expect(jsonObject(unmuted.stdout)?["muted"] as? Bool == false && jsonObject(unmuted.stdout)?["muted_until"] is NSNull)
        let bad = try alice.run(["dialogs", "mute", id, "--for", "soon"])
        #expect(bad.status == 2 && bad.stderr.contains("--for"), "stderr: \(bad.stderr)")
    }

    /// The chat view looks too, before it takes the screen: the list it opens on is unmuted.
    @Test func aMuteThatEndedIsUndoneWhenChatOpens() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "hi"]).status == 0)
        let id = try createdID(try alice.run(["dialogs", "create", "--private", "@" + bob.login, "--json"]))
        #expect(try alice.run(["dialogs", "mute", id, "--for", "8h"]).status == 0)
        try endMute(alice, id)
        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try terminal.startChatctl("chat", waitingFor: bob.login)
        #expect(try serverEnabled(alice, id) == 1)
        #expect(try listed(alice, id, offline: true)?["muted"] as? Bool == false)
        try terminal.press("q")
        try terminal.waitForPrompt()
    }
}
