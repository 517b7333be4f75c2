import Foundation
import Testing
import TestSupport

/// Dialogs, messages and users changed from the command line, against the
/// real sandbox; who may do what, the exit codes, `--json`, and the cache following.
@Suite(.serialized) struct ManageEndToEndTests {
    let sandbox: SandboxProcess
    init() throws { sandbox = try SandboxProcess() }

    /// The stderr of a refusal or bad input: exactly one line, saying `needle`.
    func expectOneLine(_ result: ProcessResult, status: Int32, saying needle: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasSuffix("\n") && result.stderr.dropLast().contains("\n") == false, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(needle), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    func json(_ result: ProcessResult) -> [String: Any] { jsonObject(result.stdout) ?? [:] }

    @Test func aGroupIsShownRenamedGrownShrunkLeftAndDeleted() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox), dave = try ChatUser("dave", sandbox: sandbox)
        let name = "ops" + String(Int.random(in: 1000...9999))
        let created = try alice.run(["dialogs", "create", "--group", name, "--with", "@" + bob.login, "--json"])
        #expect(created.status == 0, "stderr: \(created.stderr)")
        let id = try #require(json(created)["_id"] as? String)

        let shown = try alice.run(["dialogs", "show", name])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("Type:      group"))
        #expect(shown.stdout.contains("Occupants: 2"))
        #expect(shown.stdout.contains("@\(alice.login)  (owner, you)") && shown.stdout.contains("@\(bob.login)\n"))
        #expect(json(try bob.run(["dialogs", "show", id, "--json"]))["occupants_ids"] as? [Int] == [alice.id, bob.id])

        // Bob is not the owner: refused, one line, exit 1, nothing changed.
        expectOneLine(try bob.run(["dialogs", "rename", name, "bobs"]), status: 1, saying: "not allowed to rename '\(name)'")
        let renamed = try alice.run(["dialogs", "rename", id, name + "b", "--json"])
        #expect(renamed.status == 0 && json(renamed)["name"] as? String == name + "b")
        #expect(json(try bob.run(["dialogs", "show", name + "b", "--json"]))["_id"] as? String == id, "bob finds it by its new name")

        let added = try alice.run(["dialogs", "add", id, "@\(carol.login),@\(bob.login)", "--json"])
        #expect(added.status == 0, "stderr: \(added.stderr)")
        #expect(json(added)["occupants_ids"] as? [Int] == [alice.id, bob.id, carol.id])
        #expect(added.stderr.contains("@\(bob.login) is already in"))
        expectOneLine(try alice.run(["dialogs", "add", id, "@nosuch" + uniqueLogin()]), status: 2, saying: "no user with login")
        expectOneLine(try alice.run(["dialogs", "remove", id, "@" + dave.login]), status: 2, saying: "@\(dave.login) is not in '\(name)b'")
        expectOneLine(try bob.run(["dialogs", "remove", id, "@" + carol.login]), status: 1, saying: "not allowed to remove people from")
        let removed = try alice.run(["dialogs", "remove", id, "@" + carol.login])
        #expect(removed.status == 0 && removed.stdout.isEmpty && removed.stderr == "chatctl: removed @\(carol.login) from '\(name)b'\n")

        let left = try bob.run(["dialogs", "leave", id])
        #expect(left.status == 0, "stderr: \(left.stderr)")
        #expect(try bob.run(["dialogs", "--offline", "--json"]).stdout == "[]\n", "the cache forgot it")
        #expect(json(try alice.run(["dialogs", "show", id, "--json"]))["occupants_ids"] as? [Int] == [alice.id])
        expectOneLine(try bob.run(["dialogs", "delete", id, "--everyone"]), status: 2, saying: "no dialog with id \(id)")

        let deleted = try alice.run(["dialogs", "delete", id, "--everyone", "--json"])
        #expect(deleted.status == 0)
        #expect(deleted.stdout == #"{"NotFound":{"ids":[]},"SuccessfullyDeleted":{"ids":["\#(id)"]}}"# + "\n")
        expectOneLine(try alice.run(["dialogs", "show", id]), status: 2, saying: "no dialog with id \(id)")
    }

    @Test func onlyTheOwnerDeletesForEveryoneAndAPrivateDialogKeepsItsShape() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let created = try alice.run(["dialogs", "create", "--private", "@" + bob.login, "--json"])
        let id = try #require(json(created)["_id"] as? String)
        expectOneLine(try alice.run(["dialogs", "rename", "@" + bob.login, "us"]), status: 2, saying: "a private dialog has no name to change")
        expectOneLine(try alice.run(["dialogs", "add", id, "@" + bob.login]), status: 2, saying: "a private dialog's occupants cannot change")
        expectOneLine(try alice.run(["dialogs", "leave", id]), status: 2, saying: "a private dialog cannot be left")
        expectOneLine(try bob.run(["dialogs", "delete", "@" + alice.login, "--everyone"]), status: 1,
                      saying: "not allowed to delete the private dialog \(id) for everyone")
        let mine = try bob.run(["dialogs", "delete", "@" + alice.login])
        #expect(mine.status == 0 && mine.stdout.isEmpty && mine.stderr == "chatctl: deleted the private dialog with @\(alice.login) for you\n",
                "stderr: \(mine.stderr)")
        #expect(try bob.run(["dialogs", "--json"]).stdout == "[]\n")
        #expect(json(try alice.run(["dialogs", "show", id, "--json"]))["occupants_ids"] as? [Int] == [alice.id])
    }

    @Test func messagesAreEditedAndDeletedAndTheCacheFollows() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "helo wrold"]).status == 0)
        let id = try #require(try alice.history("@" + bob.login).first?["_id"] as? String)
        #expect(try bob.history("@" + alice.login).first?["message"] as? String == "helo wrold")

        expectOneLine(try bob.run(["edit", id, "bob's", "words"]), status: 1, saying: "not allowed to edit message \(id)")
        let edited = try alice.run(["edit", id, "hello", "world", "--json"])
        #expect(edited.status == 0, "stderr: \(edited.stderr)")
        #expect(json(edited)["message"] as? String == "hello world")
        #expect(try alice.run(["search", "wrold", "--json"]).stdout == "[]\n", "search follows the edit")
        #expect(try bob.history("@" + alice.login).map { $0["message"] as? String } == ["hello world"])
        #expect(try bob.run(["search", "hello", "--json"]).stdout.contains(id))

        // Bob deletes it for himself: gone from his history and search, still Alice's.
        let hidden = try bob.run(["delete", id])
        #expect(hidden.status == 0 && hidden.stdout.isEmpty && hidden.stderr == "chatctl: deleted message \(id) for you\n")
        #expect(try bob.run(["search", "hello", "--json"]).stdout == "[]\n")
        #expect(try bob.history("@" + alice.login).isEmpty)
        #expect(try alice.history("@" + bob.login).count == 1)
        expectOneLine(try bob.run(["delete", id, "--everyone"]), status: 2, saying: "no message with id \(id)")

        let gone = try alice.run(["delete", id, "--everyone", "--json"])
        #expect(gone.stdout == #"{"NotFound":{"ids":[]},"SuccessfullyDeleted":{"ids":["\#(id)"]}}"# + "\n")
        #expect(try alice.run(["search", "hello", "--json"]).stdout == "[]\n")
        #expect(try alice.history("@" + bob.login).isEmpty)

        let unknown = "0123456789abcdef01234567"
        expectOneLine(try alice.run(["edit", unknown, "x"]), status: 2, saying: "is not in the cache, so its dialog is unknown")
        expectOneLine(try alice.run(["edit", unknown, "x", "--dialog", "@" + bob.login]), status: 2, saying: "no message with id \(unknown)")
        expectOneLine(try alice.run(["delete", unknown]), status: 2, saying: "no message with id \(unknown)")
    }

    @Test func usersAreListedPagedAndFoundByLoginFullNameAndEmail() throws {
        let tag = uniqueLogin("z")
        let ann = tag + "ann", ben = tag + "ben"
        for (login, fullName, email) in [(ann, "Ann \(tag)", "\(tag)ann@example.com"), (ben, "Ben \(tag)", nil)] {
            let token = try sandbox.createSession()
            var params = [("user[login]", login), ("user[password]", ChatUser.password), ("user[full_name]", fullName)]
            if let email { params.append(("user[email]", email)) }
            #expect(try sandbox.request(method: "POST", path: "/users.json", params: params, token: token).status == 201)
        }
        let viewer = try ChatUser("viewer", sandbox: sandbox)

        let byName = try viewer.run(["users", tag, "--json"])
        #expect(byName.status == 0, "stderr: \(byName.stderr)")
        let found = try JSONSerialization.jsonObject(with: Data(byName.stdout.utf8)) as? [[String: Any]]
        #expect(found?.compactMap { $0["login"] as? String } == [ann, ben])
        #expect(found?.first?["full_name"] as? String == "Ann \(tag)", "plain QuickBlox user objects")

        let table = try viewer.run(["users", "@" + ben])
        #expect(table.status == 0)
        #expect(table.stdout.contains("\t\(ben)\tBen \(tag)\t") && !table.stdout.hasPrefix("ID"), "a row, no header, in a pipe")
        #expect(try viewer.run(["users", "\(tag)ann@example.com", "--json"]).stdout.contains(#""login":"\#(ann)""#))

        let firstPage = try viewer.run(["users", tag, "--per-page", "1", "--json"])
        #expect(firstPage.stderr == "chatctl: page 1 of 2 (2 users); the next: --page 2\n")
        let secondPage = try viewer.run(["users", tag, "--per-page", "1", "--page", "2", "--json"])
        #expect(secondPage.stdout.contains(ben) && !secondPage.stdout.contains(ann) && secondPage.stderr.isEmpty)

        let nobody = try viewer.run(["users", "@nosuch" + tag])
        #expect(nobody.status == 0 && nobody.stdout.isEmpty && nobody.stderr == "chatctl: no users match\n")
        let everyone = try viewer.run(["users", "--per-page", "100", "--json"])
        #expect(everyone.status == 0 && everyone.stdout.contains(viewer.login))
    }

    @Test func creatingAndAddingAreAnnouncedToTheOccupantsOverChat() throws {
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        // --verbose shows every stanza received, headlines included.
        let bobListens = try bob.cli.background(["listen", "--verbose", "--timeout", "60s"])
        let carolListens = try carol.cli.background(["listen", "--verbose", "--timeout", "60s"])
        // Only cleanup: what they heard is checked below, as it arrives.
        defer { for child in [bobListens, carolListens] { child.signal(SIGKILL); _ = child.finish(timeout: 10) } }
        try bobListens.waitUntilListening()
        try carolListens.waitUntilListening()

        let name = "news" + String(Int.random(in: 1000...9999))
        let created = try alice.run(["dialogs", "create", "--group", name, "--with", "@" + bob.login, "--json"])
        #expect(created.status == 0 && created.stderr.isEmpty, "stderr: \(created.stderr)")
        let id = try #require(json(created)["_id"] as? String)
        let toBob = try bobListens.stderr.waitForLine(containing: "<_id>\(id)</_id>", timeout: 30)
        #expect(toBob.contains(#"type="headline""#) || toBob.contains("type='headline'"))
        #expect(toBob.contains("<moduleIdentifier>SystemNotifications</moduleIdentifier><notification_type>1</notification_type>"))
        #expect(toBob.contains("<name>\(name)</name>") && toBob.contains("<occupants_ids>\(alice.id),\(bob.id)</occupants_ids>"))
        // And listen understood it: it says so and follows the new group.
        try bobListens.stderr.waitForLine(containing: "\(alice.login) added you to \(name)", timeout: 30)

        let added = try alice.run(["dialogs", "add", id, "@" + carol.login])
        #expect(added.status == 0 && added.stderr == "chatctl: added @\(carol.login) to '\(name)'\n", "stderr: \(added.stderr)")
        let toCarol = try carolListens.stderr.waitForLine(containing: "<_id>\(id)</_id>", timeout: 30)
        #expect(toCarol.contains("<notification_type>1</notification_type>"))
        let update = try bobListens.stderr.waitForLine(containing: "<new_occupants_ids>\(carol.id)</new_occupants_ids>", timeout: 30)
        #expect(update.contains("<notification_type>2</notification_type>") && update.contains("<_id>\(id)</_id>"))
    }

    @Test func whenChatIsOutOfReachTheDialogIsStillCreatedWithAWarning() throws {
        let bob = try ChatUser("bob", sandbox: sandbox)
        // The sandbox's REST, and a chat port that refuses connections.
        let refusing = try LoopbackListener(listening: false)
        defer { refusing.close() }
        var config = sandbox.config
        var endpoints = config["endpoints"] as? [String: Any] ?? [:]
        endpoints["chat"] = "xmpp://127.0.0.1:\(refusing.port)"
        config["endpoints"] = endpoints
        let directory = try TemporaryDirectory(prefix: "chatctl-nochat")
        let path = directory.file("config.json")
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
        let alice = try ChatUser("alice", configPath: path)

        let name = "far" + String(Int.random(in: 1000...9999))
        let created = try alice.run(["dialogs", "create", "--group", name, "--with", "@" + bob.login])
        #expect(created.status == 0)
        #expect(created.stdout.isEmpty)
        let lines = created.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(created.stderr)")
        #expect(lines.first?.hasPrefix("chatctl: created the group dialog '\(name)', id ") == true)
        #expect(lines.last?.hasPrefix("chatctl: warning: the change stands, but the occupants were not told over chat: chat connect: cannot connect") == true)
        #expect(try bob.run(["dialogs", "show", name]).status == 0, "the dialog exists for bob")
    }
}
