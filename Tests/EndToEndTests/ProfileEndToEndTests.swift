import Foundation
import Testing
import TestSupport

/// Issue 21: the display name follows the login (the seed's "Full Name Did Change"), seen
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

        let users = try alice.run(["users", "@" + bob.login, "--json"])
        let seen = try JSONSerialization.jsonObject(with: Data(users.stdout.utf8)) as? [[String: Any]]
        #expect(seen?.first?["full_name"] as? String == "Bob Q", "\(users.stdout)")
        let dialogs = try alice.run(["dialogs"])
        #expect(dialogs.status == 0 && dialogs.stdout.contains("Bob Q"), "\(dialogs.stdout)")

        // The same name again is no change.
        let same = try bob.cli.login(bob.login, password: ChatUser.password, extra: ["--no-chat", "--full-name", "Bob Q"])
        #expect(same.status == 0 && !same.stderr.contains("Display name changed"))
    }
}
