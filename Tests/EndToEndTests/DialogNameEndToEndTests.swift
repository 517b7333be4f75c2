import Foundation
import Testing
import TestSupport

/// The names `chatctl dialogs` shows are names commands accept; a name
/// several dialogs share lists them so a person can pick; a second group of a name warns.
@Suite(.serialized) struct DialogNameEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    /// `id` as `dialogs --json` has it, from a `dialogs create --json` answer.
    private func createdID(_ result: ProcessResult) -> String? { jsonObject(result.stdout)?["_id"] as? String }

    /// Bob by the full name the list shows, by his email address with and without `@`,
    /// and by his login; offline from the cache as well.
    @Test func thePrivateDialogByTheNameShownByEmailAndByLogin() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let fullName = "bob Q \(bob.id)", email = "\(bob.login)@example.com"
        let profile = try bob.run(["profile", "set", "--full-name", fullName, "--email", email])
        #expect(profile.status == 0, "stderr: \(profile.stderr)")
        #expect(try alice.run(["send", "@" + bob.login, "first"]).status == 0)
        let listed = try alice.run(["dialogs"])
        #expect(listed.stdout.contains(fullName), "the name copied below is the one shown: \(listed.stdout)")

        let sent = ["by name", "by email", "by @email", "by login"]
        for (dialog, text) in zip([fullName, email, "@" + email, bob.login], sent) {
            let r = try alice.run(["send", dialog, text])
            #expect(r.status == 0, "send \(dialog): \(r.stderr)")
        }
        #expect(try bob.history("@" + alice.login).compactMap { $0["message"] as? String } == ["first"] + sent)
        #expect(try alice.history(fullName.uppercased(), offline: true).count == 5, "offline, and but for case")
        #expect(try alice.history(email, offline: true).count == 5)
    }

    /// `send freinds hello`: a name that matches no dialog suggests the nearest one, as a
    /// mistyped command does, in every command that takes a dialog (exit 2, nothing sent).
    @Test func aMistypedNameSuggestsTheNearest() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let created = try alice.run(["dialogs", "create", "--group", "friends", "--with", "@" + bob.login])
        #expect(created.status == 0, "stderr: \(created.stderr)")
        let said = "chatctl: no dialog named 'freinds' (did you mean 'friends'? 'chatctl dialogs' lists yours)\n"
        for arguments in [["send", "freinds", "hello"], ["history", "freinds"], ["history", "freinds", "--offline"],
                          ["dialogs", "mute", "freinds"], ["dialogs", "show", "freinds"], ["read", "freinds"],
                          ["listen", "freinds", "--timeout", "1s"], ["export", "freinds"]] {
            let result = try alice.run(arguments)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
            #expect(result.stderr == said, "\(arguments)")
        }
        // Nothing near: the old hint alone.
        let far = try alice.run(["send", "zzzzzzzz", "hello"])
        #expect(far.stderr == "chatctl: no dialog named 'zzzzzzzz' (run 'chatctl dialogs' to see yours, or use @login for a private dialog)\n")
        #expect(try alice.history("friends").isEmpty, "nothing was sent")
    }

    /// Two groups named alike: the second's creation warns (exit 0) naming the first; a
    /// command given the name lists both, each with type, occupants and last activity
    /// (exit 2); `dialogs` tells the rows apart, and each row's name reaches its dialog.
    @Test func twoGroupsOfOneNameWarnListAndAreToldApart() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        let name = "team" + String(Int.random(in: 1000...9999))
        let first = try alice.run(["dialogs", "create", "--group", name, "--with", "@" + bob.login, "--json"])
        #expect(first.status == 0 && !first.stderr.contains("warning"), "stderr: \(first.stderr)")
        let firstID = try #require(createdID(first))
        #expect(try alice.run(["send", name, "to the first"]).status == 0, "one group of the name: no ambiguity")

        let second = try alice.run(["dialogs", "create", "--group", name, "--with", "@\(bob.login),@\(carol.login)", "--json"])
        #expect(second.status == 0, "stderr: \(second.stderr)")
        let secondID = try #require(createdID(second))
        let warning = second.stderr.split(separator: "\n").map(String.init)
        #expect(warning.first == "chatctl: warning: you already have a dialog named '\(name)' (below); the new one is \(secondID): name either by its id")
        #expect(warning.count == 2 && warning[1].hasPrefix("  \(firstID)  group  '\(name)'  2 occupants: you, "), "\(warning)")

        let ambiguous = try alice.run(["send", name, "hi"])
        #expect(ambiguous.status == 2)
        let lines = ambiguous.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "chatctl: '\(name)' names 2 dialogs; give one by its id (or by the name 'chatctl dialogs' shows):")
        let firstLine = try #require(lines.first { $0.contains(firstID) }), secondLine = try #require(lines.first { $0.contains(secondID) })
        #expect(firstLine.contains("  group  ") && firstLine.contains("2 occupants: you, \(bob.login)") && firstLine.contains("last message 20"))
        #expect(secondLine.contains("  group  ") && secondLine.contains("3 occupants: you, ") && secondLine.contains(carol.login))
        #expect(secondLine.hasSuffix("no messages"))

        let listed = try alice.run(["dialogs"])
        let shown = Set(listed.stdout.matches(of: try Regex("\(name) \\([0-9a-f]{6,24}\\)")).map { String(listed.stdout[$0.range]) })
        #expect(shown.count == 2, "two rows, told apart: \(listed.stdout)")
        for title in shown {
            let id = firstID.hasSuffix(title.dropFirst(name.count + 2).dropLast()) ? firstID : secondID
            #expect(try alice.run(["send", title, "to \(id)"]).status == 0)
            #expect(try alice.history(id).compactMap { $0["message"] as? String }.last == "to \(id)")
        }
    }

    /// A group named as the person of a private dialog: both are candidates, and creating it warns.
    @Test func aGroupAndAPrivateDialogOfOneNameAreBothListed() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let name = "twin " + String(Int.random(in: 1000...9999))
        #expect(try bob.run(["profile", "set", "--full-name", name]).status == 0)
        #expect(try alice.run(["send", "@" + bob.login, "hello"]).status == 0)
        let group = try alice.run(["dialogs", "create", "--group", name, "--with", "@" + bob.login])
        #expect(group.status == 0)
        #expect(group.stderr.contains("warning: you already have a dialog named '\(name)'") && group.stderr.contains("  private  '\(name)'"),
                "stderr: \(group.stderr)")
        let ambiguous = try alice.run(["history", name])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderr.contains("  private  ") && ambiguous.stderr.contains("  group  "), "stderr: \(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("2 occupants: you, \(name)  last message "))
    }
}
