import Foundation
import Testing
import TestSupport

/// Muted dialogs from the command line against the real sandbox: `dialogs mute` and
/// `unmute` change the server's setting (read back over REST, not by chatctl), and the list
/// shows the flag they leave in the cache.
@Suite(.serialized) struct MuteEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    /// `enabled` of the user's notification settings of `dialog`, as the server answers it.
    func serverEnabled(_ user: ChatUser, _ dialog: String) throws -> Int? {
        let token = try sandbox.createSession(login: user.login, password: ChatUser.password)
        let r = try sandbox.response(method: "GET", path: "/chat/Dialog/\(dialog)/notifications.json", token: token)
        #expect(r.status == 200, "\(r.body)")
        return ((r.json as? [String: Any])?["notifications"] as? [String: Any])?["enabled"] as? Int
    }

    /// `muted` of dialog `id` in `chatctl dialogs --json` (with `--offline`: the cache's alone).
    func listedMuted(_ user: ChatUser, _ id: String, offline: Bool = false) throws -> Bool? {
        let listed = try user.run(["dialogs", "--json"] + (offline ? ["--offline"] : []))
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        let dialogs = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        return dialogs.first { $0["_id"] as? String == id }?["muted"] as? Bool
    }

    @Test func muteShowsInTheListAndOnTheServerThenUnmute() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let created = try alice.run(["dialogs", "create", "--private", "@" + bob.login, "--json"])
        let id = try #require(jsonObject(created.stdout)?["_id"] as? String, "stderr: \(created.stderr)")
        #expect(try listedMuted(alice, id) == false)
        #expect(try serverEnabled(alice, id) == 1)

        let muted = try alice.run(["dialogs", "mute", "@" + bob.login])
        #expect(muted.status == 0, "stderr: \(muted.stderr)")
        #expect(muted.stdout.isEmpty && muted.stderr == "chatctl: muted the private dialog with @\(bob.login)\n", "stderr: \(muted.stderr)")
        #expect(try serverEnabled(alice, id) == 0)
        #expect(try serverEnabled(bob, id) == 1, "Bob's setting is his own")
        #expect(try listedMuted(alice, id) == true)
        let table = try alice.run(["dialogs"])
        // In a pipe: id, name, type, unread, muted, … (docs/cli-output.md).
        let row = table.stdout.split(separator: "\n").first?.split(separator: "\t", omittingEmptySubsequences: false)
        #expect(row?.first.map(String.init) == id && row?[4] == "muted", "\(table.stdout)")
        #expect(try alice.run(["dialogs", "show", id]).stdout.contains("Muted:     yes\n"))

        let unmuted = try alice.run(["dialogs", "unmute", "@" + bob.login, "--json"])
        #expect(unmuted.status == 0, "stderr: \(unmuted.stderr)")
        #expect(jsonObject(unmuted.stdout)?["_id"] as? String == id)
        #expect(jsonObject(unmuted.stdout)?["muted"] as? Bool == false)
        #expect(try serverEnabled(alice, id) == 1)
        #expect(try listedMuted(alice, id) == false)
    }

    /// Muted elsewhere (another device, over REST here): `dialogs show` reads it and the list then has it.
    @Test func showReadsASettingChangedElsewhere() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let name = "ops" + String(Int.random(in: 1000...9999))
        let created = try alice.run(["dialogs", "create", "--group", name, "--with", "@" + bob.login, "--json"])
        let id = try #require(jsonObject(created.stdout)?["_id"] as? String, "stderr: \(created.stderr)")
        let token = try sandbox.createSession(login: alice.login, password: ChatUser.password)
        let put = try sandbox.request(method: "PUT", path: "/chat/Dialog/\(id)/notifications.json", params: [("enabled", "0")],
                                      token: token)
        #expect(put.status == 200 && put.body == #"{"notifications":{"enabled":0}}"#)
        #expect(try listedMuted(alice, id, offline: true) == false, "the cache has not heard yet")
        let shown = try alice.run(["dialogs", "show", name, "--json"])
        #expect(shown.status == 0 && jsonObject(shown.stdout)?["muted"] as? Bool == true, "stderr: \(shown.stderr)")
        #expect(try listedMuted(alice, id, offline: true) == true)
        #expect(try alice.run(["dialogs", "mute", name, "--json"]).status == 0, "muting a muted dialog is fine")
        #expect(try serverEnabled(alice, id) == 0)
    }

    @Test func anUnknownDialogIsBadInput() throws {
        let alice = try ChatUser("alice", sandbox: sandbox)
        let result = try alice.run(["dialogs", "mute", "0123456789abcdef01234567"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no dialog with id 0123456789abcdef01234567"))
        #expect(result.stdout.isEmpty)
    }
}
