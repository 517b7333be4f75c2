import Foundation
import Testing
import TestSupport

/// The display name follows the login (the seed's "Full Name Did Change"), seen
/// by another user. Real chatctl, real sandbox.
@Suite(.serialized) struct ProfileEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    @Test func fullNameOnAnExistingAccountChangesTheNameOthersSee() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["dialogs", "create", "--private", "@" + bob.login]).status == 0)
        // Without --full-name the login keeps the account's name.
        let plain = try bob.cli.login(bob.login, password: ChatUser.password, extra: ["--no-chat", "--json"])
        #expect(plain.status == 0 && !plain.stderr.contains("Display name changed"), "stderr: \(plain.stderr)")

        let renamed = try bob.cli.login(bob.login, password: ChatUser.password, extra: ["--no-chat", "--json", "--full-name", "Bob Q"])
        #expect(renamed.status == 0, "stderr: \(renamed.stderr)")
        #expect(renamed.stderr.contains("Display name changed to 'Bob Q'."))
        #expect((jsonObject(renamed.stdout)?["user"] as? [String: Any])?["full_name"] as? String == "Bob Q")

        // `dialogs` first: it asks for the names itself (a `users` call before would refresh the cache).
        let dialogs = try alice.run(["dialogs"])
        #expect(dialogs.status == 0 && dialogs.stdout.contains("Bob Q"), "\(dialogs.stdout)")
        let users = try alice.run(["users", "@" + bob.login, "--json"])
        let seen = try JSONSerialization.jsonObject(with: Data(users.stdout.utf8)) as? [[String: Any]]
        #expect(seen?.first?["full_name"] as? String == "Bob Q", "\(users.stdout)")

        // The same name again is no change.
        let same = try bob.cli.login(bob.login, password: ChatUser.password, extra: ["--no-chat", "--full-name", "Bob Q"])
        #expect(same.status == 0 && !same.stderr.contains("Display name changed"))
    }

    /// `profile set` changes fields and `profile --json` shows them; an avatar set with
    /// `--avatar` is what another user's `users --json` names; `--no-avatar` takes it away.
    @Test func profileSetChangesFieldsAndTheAvatarOthersSee() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let set = try alice.run(["profile", "set", "--full-name", "Alice Q", "--phone", "+1 555 0100", "--website", "https://alice.example",
                                 "--tags", "ops, oncall", "--custom-data", #"{"team":"infra"}"#, "--json"])
        #expect(set.status == 0, "stderr: \(set.stderr)")
        let shown = try alice.run(["profile", "--json"])
        let user = try #require(jsonObject(shown.stdout), "\(shown.stdout)")
        #expect(user["full_name"] as? String == "Alice Q" && user["phone"] as? String == "+1 555 0100")
        #expect(user["website"] as? String == "https://alice.example" && user["custom_data"] as? String == #"{"team":"infra"}"#)
        #expect((user["user_tags"] as? [String]).map(Set.init) == ["ops", "oncall"], "\(user)")
        let table = try alice.run(["profile"])
        #expect(table.stdout.contains("Name:         Alice Q") && table.stdout.contains("Avatar:       none"), "\(table.stdout)")

        let directory = try TemporaryDirectory(prefix: "chatctl-avatar")
        let picture = directory.file("me.bmp")
        try Data(ChatEndToEndTests.splitBMP(width: 16, height: 16)).write(to: URL(fileURLWithPath: picture))
        #expect(try alice.run(["profile", "set", "--avatar", picture]).status == 0)
        let avatar = try #require(jsonObject(try alice.run(["profile", "--json"]).stdout)?["blob_id"] as? Int)
        let seen = try JSONSerialization.jsonObject(with: Data(try bob.run(["users", "@" + alice.login, "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(seen?.first?["blob_id"] as? Int == avatar, "another user sees the avatar's blob")
        #expect(try bob.run(["users", "@" + alice.login]).stdout.contains("yes"), "the AVATAR column")
        #expect(try alice.run(["profile", "set", "--no-avatar"]).status == 0)
        let none = try JSONSerialization.jsonObject(with: Data(try bob.run(["users", "@" + alice.login, "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(none?.first?["blob_id"] as? Int == nil)
    }

    /// A new password, given as two lines on standard input, is the one a later login needs;
    /// the session goes on without asking.
    @Test func aChangedPasswordIsTheOneThatLogsIn() throws {
        let alice = try ChatUser("alice", sandbox: sandbox)
        let before = try Self.sessionToken(of: alice)
        let piped = try alice.run(["profile", "set", "--password"], stdin: "\(ChatUser.password)\nnew-pass-1234\n")
        #expect(piped.status == 2 && piped.stderr.contains("--password-stdin"), "standard input is read only when asked: \(piped.stderr)")
        let changed = try alice.run(["profile", "set", "--password", "--password-stdin"], stdin: "\(ChatUser.password)\nnew-pass-1234\n")
        #expect(changed.status == 0, "stderr: \(changed.stderr)")
        #expect(try Self.sessionToken(of: alice) != before, "a new session, opened with the new password, is kept")
        if let before {
            let old = try sandbox.send(method: "GET", path: "/session.json", token: before)
            #expect(old.status == 401 || old.status == 404, "the old session ended: \(old.status)")
        }
        #expect(try alice.run(["status"]).status == 0, "the session was renewed")
        #expect(try alice.cli.login(alice.login, password: ChatUser.password, extra: ["--no-chat"]).status == 4, "the old one no longer")
        #expect(try alice.cli.login(alice.login, password: "new-pass-1234", extra: ["--no-chat"]).status == 0)
    }

    /// `profile delete --yes` removes the account on the server and leaves no session here.
    @Test func profileDeleteLeavesNoSessionBehind() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let refused = try alice.run(["profile", "delete"])
        #expect(refused.status == 2, "no terminal, no --yes: nothing deleted")
        // What the chat view keeps beside the session: another person's avatar, an image's preview.
        let state = alice.cli.stateDir.path + "/state"
        for kept in ["avatars", "previews"] {
            try FileManager.default.createDirectory(atPath: state + "/" + kept, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: state + "/\(kept)/picture", contents: Data("x".utf8))
        }
        let deleted = try alice.run(["profile", "delete", "--yes"])
        #expect(deleted.status == 0 && deleted.stderr.contains("chatctl: deleted the account \(alice.login)"), "stderr: \(deleted.stderr)")
        #expect(try alice.run(["status"]).status == 4, "not logged in")
        let left = try FileManager.default.contentsOfDirectory(atPath: state)
        #expect(!left.contains { $0.hasPrefix("session-") || $0.hasPrefix("cache-") || $0 == "avatars" || $0 == "previews" },
                "nothing of the account is left: \(left)")
        #expect(try bob.run(["users", "@" + alice.login]).stderr.contains("no users match"))
    }

    /// A name changed since the other side cached it shows in their chat view as it opens:
    /// the header and the name above the cell.
    @Test func aRenameShowsInTheOtherUsersChatView() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "hello from bob"]).status == 0)
        #expect(try alice.run(["sync"]).status == 0)
        #expect(try bob.run(["profile", "set", "--full-name", "Robert Renamed"]).status == 0)
        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try terminal.startChatctl("chat @\(bob.login)")
        let screen = try terminal.waitForScreen("the new name") { $0.components(separatedBy: "Robert Renamed").count >= 3 }
        #expect(screen.hasPrefix(" Robert Renamed · private"), "the header: \(screen)")
        try terminal.press("Escape")
        try terminal.waitForPrompt()
    }

    /// On a terminal, `profile delete` asks for the login typed: a wrong one deletes nothing
    /// (exit 2), the right one deletes the account.
    @Test func profileDeleteOnATerminalWantsTheLoginTyped() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let terminal = try TmuxSession(width: 120, environment: ChatEndToEndTests.environment(alice))
        try terminal.runAtPrompt("chatctl profile delete", expecting: "Type its login to confirm:")
        try terminal.type("not-" + alice.login)
        try terminal.press("Enter")
        try terminal.waitFor("not deleted: the login typed does not match")
        try terminal.waitForPrompt()
        try terminal.runAtPrompt("echo status=$?", expecting: "status=2")
        #expect(try alice.run(["status"]).status == 0, "still logged in")
        // A clear screen first: the first question still showing would let the login be typed before the second.
        try terminal.type("clear; chatctl profile delete")
        try terminal.press("Enter")
        try terminal.waitForScreen("the second question alone") { $0.contains("Type its login to confirm:") && !$0.contains("not deleted") }
        try terminal.type(alice.login)
        try terminal.press("Enter")
        try terminal.waitFor("chatctl: deleted the account \(alice.login)")
        #expect(try alice.run(["status"]).status == 4, "no session left")
        #expect(try bob.run(["users", "@" + alice.login]).stderr.contains("no users match"))
    }

    /// The token of the session `user`'s state directory keeps.
    static func sessionToken(of user: ChatUser) throws -> String? {
        let root = user.cli.stateDir.path
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }
            .filter { ($0 as NSString).lastPathComponent.hasPrefix("session-") && $0.hasSuffix(".json") } ?? []
        let file = try #require(files.first, "no session file under \(root)")
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + file))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String
    }
}
