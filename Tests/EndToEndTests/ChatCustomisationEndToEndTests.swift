import Foundation
import Testing
import TestSupport

/// The config's `chatView` section in a real terminal (tmux) against the real
/// sandbox: initials beside incoming cells, the compact layout, a bad key told in one
/// line while the view opens, and a sender's picture drawn beside their cell.
@Suite(.serialized) struct ChatCustomisationEndToEndTests {
    typealias Chat = ChatEndToEndTests

    /// The sandbox's config with a `chatView` section, as a file of its own.
    static func config(_ sandbox: SandboxProcess, chatView: [String: Any], in directory: TemporaryDirectory) throws -> String {
        var config = sandbox.config
        config["chatView"] = chatView
        let path = directory.file("config.json")
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func environment(_ user: ChatUser, config: String, colors: Bool = false) -> [String: String] {
        var environment = Chat.environment(user, colors: colors)
        environment["CHATCTL_CONFIG"] = config
        return environment
    }

    @Test func initialsBesideTheCellThenTheCompactLayoutFromTheConfig() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "did the deploy finish?"]).status == 0)
        let files = try TemporaryDirectory()

        // Initials: a square of Bob's colour beside his cell's top, the cell moved right of it.
        let initials = try Self.config(sandbox, chatView: ["avatars": "initials"], in: files)
        let terminal = try TmuxSession(environment: Self.environment(alice, config: initials, colors: true))
        try terminal.startChatctl("chat @\(bob.login)")
        let screen = try terminal.waitFor("did the deploy finish?")
        let rows = Chat.rows(screen)
        let cell = try #require(rows.firstIndex { $0.contains("did the deploy finish?") })
        #expect(rows[cell - 1].hasPrefix("  B   ╭"), "\(screen)")
        #expect(rows[cell].hasPrefix("      │ did the deploy finish? │"))
        #expect(rows[cell - 2].hasPrefix("      \(bob.login)"))
        let colored = Chat.rows(try terminal.screen(colors: true))
        let badge = try #require(colored.first { $0.contains("B") && $0.contains("╭") && !$0.contains(bob.login) })
        #expect((badge.components(separatedBy: "B").first ?? "").contains("48;5;"), "on a colour: \(badge)")
        try terminal.press("Escape")
        try terminal.waitForPrompt()

        // Compact, times as h:mm a; a key the view does not know is one line, and the view opens.
        let compact = try Self.config(sandbox, chatView: ["bubbles": false, "timeFormat": "h:mm a", "shape": "round"], in: files)
        let second = try TmuxSession(environment: Self.environment(alice, config: compact))
        try second.startChatctl("chat @\(bob.login)")
        let line = try second.waitForScreen("the compact line") { screen in
            Chat.rows(screen).contains { $0.range(of: #"^ \d{1,2}:\d\d [AP]M <\#(bob.login)> did the deploy finish\?$"#,
                                                   options: .regularExpression) != nil }
        }
        #expect(!line.contains("╭"), "no cells: \(line)")
        try second.type("on it")
        try second.press("Enter")
        try second.waitForScreen("our line with its state") { screen in
            Chat.rows(screen).contains { $0.range(of: #"<\#(alice.login)> on it (✓|✓✓)$"#, options: .regularExpression) != nil }
        }
        try second.press("Escape")
        try second.waitForPrompt()
        let after = try second.screen()
        #expect(after.contains("chatctl: config: chatView.shape: unknown key"), "\(after)")
        #expect(Chat.rows(after).filter { $0.hasPrefix("chatctl: config:") }.count == 1)
    }

    @Test func aSendersPictureIsDrawnBesideTheirCell() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let files = try TemporaryDirectory()
        // Bob's picture: red on the left, blue on the right, set as his avatar by `profile set --avatar`.
        let picture = files.file("bob.bmp")
        try Data(Chat.splitBMP(width: 64, height: 64)).write(to: URL(fileURLWithPath: picture))
        let set = try bob.run(["profile", "set", "--avatar", picture])
        #expect(set.status == 0, "\(set.stderr)")
        let blobID = try #require(jsonObject(try bob.run(["profile", "--json"]).stdout)?["blob_id"] as? Int)
        #expect(try bob.run(["send", "@" + alice.login, "did the deploy finish?"]).status == 0)

        let config = try Self.config(sandbox, chatView: ["avatars": "image"], in: files)
        let terminal = try TmuxSession(environment: Self.environment(alice, config: config, colors: true))
        try terminal.startChatctl("chat @\(bob.login) --images symbols")
        // Two rows of four cells beside the cell's top: red (196) then blue (21), where the initials were.
        let screen = try terminal.waitForScreen("Bob's picture beside his cell", colors: true) { screen in
            let rows = Chat.rows(screen)
            guard let cell = rows.firstIndex(where: { $0.contains("did the deploy finish?") }), cell >= 1 else { return false }
            let square = rows[cell - 1].components(separatedBy: "╭").first ?? ""
            return square.contains("196m") && square.contains("21m") && !rows[cell - 1].contains(" B ")
        }
        let rows = Chat.rows(screen)
        let cell = try #require(rows.firstIndex { $0.contains("did the deploy finish?") })
        let below = rows[cell].components(separatedBy: "│").first ?? ""
        #expect(below.contains("196m") && below.contains("21m"), "two rows tall: \(below)")

        // Kept in the state directory, private, under Bob's id and the blob's.
        let avatars = alice.cli.stateDir.path + "/state/avatars"
        let file = avatars + "/\(bob.id)-\(blobID)"
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: avatars)[.posixPermissions] as? Int) == 0o700)
        #expect(FileManager.default.contentsEqual(atPath: file, andPath: picture))
        try terminal.press("Escape")
        try terminal.waitForPrompt()
    }
}
