import Foundation
import Testing
import TestSupport

/// Every command that changes something says so the same way (docs/cli-output.md, "What a
/// change says"): one line on stderr naming the change, stdout empty; with --json, the
/// changed object on stdout and nothing on stderr. A private dialog is named by its other person.
@Suite(.serialized) struct ChangeReportEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    /// One step: who runs what, and the line it must say (nil: run with --json, which must
    /// print a JSON object and say nothing on stderr).
    struct Step {
        let user: ChatUser
        let arguments: [String]
        let says: String?
    }

    @Test func everyChangeSaysWhatChangedTheSameWay() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        let team = "team" + String(Int.random(in: 1000...9999))
        let (a, b, c) = ("@" + alice.login, "@" + bob.login, "@" + carol.login)
        var steps: [Step] = [
            Step(user: carol, arguments: ["me", "set", "--full-name", "Carol Danvers"], says: "changed your full name to 'Carol Danvers'"),
            Step(user: carol, arguments: ["profile", "set", "--website", "", "--tags", "a,b"], says: "changed your website (cleared), tags to 'a,b'"),
            Step(user: carol, arguments: ["me", "set", "--phone", "555", "--json"], says: nil),
            Step(user: alice, arguments: ["dialogs", "create", "--group", team, "--with", b], says: "created the group dialog '\(team)', id "),
            Step(user: alice, arguments: ["dialogs", "mute", team], says: "muted '\(team)'"),
            Step(user: alice, arguments: ["dialogs", "mute", team, "--json"], says: nil),
            Step(user: alice, arguments: ["dialogs", "unmute", team], says: "unmuted '\(team)'"),
            Step(user: alice, arguments: ["dialogs", "rename", team, team + "b"], says: "renamed '\(team)' to '\(team)b'"),
            Step(user: alice, arguments: ["dialogs", "rename", team + "b", team + "c", "--json"], says: nil),
            Step(user: alice, arguments: ["dialogs", "add", team + "c", c], says: "added \(c) to '\(team)c'"),
            Step(user: alice, arguments: ["dialogs", "remove", team + "c", c], says: "removed \(c) from '\(team)c'"),
            Step(user: alice, arguments: ["dialogs", "add", team + "c", c, "--json"], says: nil),
            Step(user: bob, arguments: ["dialogs", "leave", team + "c"], says: "left '\(team)c'"),
            Step(user: carol, arguments: ["dialogs", "leave", team + "c", "--json"], says: nil),
            Step(user: alice, arguments: ["dialogs", "delete", team + "c"], says: "deleted '\(team)c' for you"),
            Step(user: alice, arguments: ["dialogs", "create", "--private", c], says: "created the private dialog with Carol Danvers (\(c)), id "),
            Step(user: alice, arguments: ["dialogs", "create", "--private", c], says: "the private dialog with Carol Danvers (\(c)) already exists, id "),
            Step(user: alice, arguments: ["dialogs", "mute", c], says: "muted the private dialog with Carol Danvers (\(c))"),
            Step(user: bob, arguments: ["dialogs", "create", "--private", a, "--json"], says: nil),
        ]
        for step in steps { try check(step) }

        #expect(try alice.run(["send", c, "helo"]).status == 0)
        let id = try #require(try alice.history(c).first?["_id"] as? String)
        steps = [
            Step(user: alice, arguments: ["edit", id, "hello"], says: "edited message \(id)"),
            Step(user: alice, arguments: ["edit", id, "hello!", "--json"], says: nil),
            Step(user: carol, arguments: ["delete", id], says: "deleted message \(id) for you"),
            Step(user: carol, arguments: ["dialogs", "delete", a], says: "deleted the private dialog with \(a) for you"),
            Step(user: alice, arguments: ["logout"], says: "logged out \(alice.login)"),
            Step(user: bob, arguments: ["logout", "--json"], says: nil),
        ]
        for step in steps { try check(step) }
    }

    func check(_ step: Step, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try step.user.run(step.arguments)
        #expect(result.status == 0, "\(step.arguments): \(result.stderr)", sourceLocation: sourceLocation)
        guard let line = step.says else {
            #expect(result.stderr.isEmpty, "\(step.arguments): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(jsonObject(result.stdout) != nil, "\(step.arguments): \(result.stdout)", sourceLocation: sourceLocation)
            return
        }
        #expect(result.stdout.isEmpty, "\(step.arguments): \(result.stdout)", sourceLocation: sourceLocation)
        let said = "chatctl: " + line
        // A line that ends with an id (a created dialog) is compared up to it, then the id checked.
        if line.hasSuffix("id ") {
            #expect(result.stderr.hasPrefix(said), "\(step.arguments): \(result.stderr)", sourceLocation: sourceLocation)
            let id = result.stderr.dropFirst(said.count).dropLast()
            #expect(id.count == 24 && id.allSatisfy(\.isHexDigit) && result.stderr.hasSuffix("\n"), "\(result.stderr)", sourceLocation: sourceLocation)
        } else {
            #expect(result.stderr == said + "\n", "\(step.arguments)", sourceLocation: sourceLocation)
        }
    }
}
