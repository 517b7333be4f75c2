import Foundation
import Testing
import TestSupport

/// Replies and forwards in `chatctl chat`, in real terminals against the real
/// sandbox: one made in the view reaches the other user's view quoted, and stored in the
/// UI Kits' shape; one made by a UI Kit app (its wire shape, sent over REST) shows quoted.
@Suite(.serialized) struct ChatRepliesEndToEndTests {
    static func rows(_ screen: String) -> [String] { screen.components(separatedBy: "\n") }

    /// The rows of the cell whose own text is `text`, from its quote down.
    static func quoteAbove(_ text: String, in screen: String) throws -> (header: String, quoted: String) {
        let rows = rows(screen)
        let row = try #require(rows.lastIndex { $0.contains(text) }, "\(text) in\n\(screen)")
        return (rows[row - 2], rows[row - 1])
    }

    @Test func aReplyMadeInTheViewShowsQuotedInTheOtherUsersView() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try bob.run(["send", "@" + alice.login, "did the deploy finish?"]).status == 0)

        let bobTerminal = try TmuxSession(environment: ChatEndToEndTests.environment(bob))
        try bobTerminal.startChatctl("chat @\(alice.login)")
        try bobTerminal.waitFor("did the deploy finish?")
        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try terminal.startChatctl("chat @\(bob.login)")
        try terminal.waitFor("did the deploy finish?")

        // Tab selects Bob's message; r starts a reply to it, shown above the input.
        try terminal.press("Tab")
        try terminal.type("r")
        try terminal.waitFor("replying to \(bob.login): did the deploy finish?")
        try terminal.type("yes, all green")
        try terminal.press("Enter")
        let mine = try terminal.waitForScreen("the reply sent") { screen in
            !screen.contains("replying to") && Self.rows(screen).contains { $0.contains(" ✓") }
        }
        var (header, quoted) = try Self.quoteAbove("yes, all green", in: mine)
        #expect(header.contains("│ ↪ \(bob.login)") && quoted.contains("│   did the deploy finish?"), "\(mine)")

        // Bob's view: the reply arrives with the quote of his message above its text.
        let his = try bobTerminal.waitFor("yes, all green")
        (header, quoted) = try Self.quoteAbove("yes, all green", in: his)
        #expect(header.contains("│ ↪ \(bob.login)") && quoted.contains("│   did the deploy finish?"), "\(his)")

        // Stored as a UI Kit app stores it: custom fields beside the text.
        let stored = try #require(try bob.history("@" + alice.login).first { $0["message"] as? String == "yes, all green" })
        #expect(stored["qb_message_action"] as? String == "reply")
        #expect(stored["origin_sender_name"] as? String == bob.login)
        let originals = try #require(stored["qb_original_messages"] as? String)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(originals.utf8)) as? [[String: Any]])
        #expect(array.first?["message"] as? String == "did the deploy finish?")
        #expect(array.first?["sender_id"] as? Int == bob.id)
        try terminal.press("C-d")
        try bobTerminal.press("C-d")
    }

    @Test func aReplyAndAForwardFromAUIKitAppShowQuoted() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + bob.login, "ready for the release?"]).status == 0)
        let original = try #require(try alice.history("@" + bob.login).first)
        let originalID = try #require(original["_id"] as? String)

        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try terminal.startChatctl("chat @\(bob.login)")
        try terminal.waitFor("ready for the release?")

        // Bob's app (a UI Kit's wire shape): the originals as a JSON string, date_sent in ms.
        let token = try sandbox.createSession(login: bob.login, password: ChatUser.password)
        let dialog = try #require(try sandbox.dialogIDs(token: token).first)
        let originals = #"[{"_id":"\#(originalID)","chat_dialog_id":"\#(dialog)","message":"ready for the release?","recipient_id":\#(bob.id),"sender_id":\#(alice.id),"date_sent":1700117172000,"attachments":[],"delivered_ids":[],"read_ids":[]}]"#
        _ = try sandbox.sendMessage(token: token, dialogId: dialog, text: "all set on my side", sendToChat: true, extra: [
            ("qb_message_action", "reply"), ("origin_sender_name", "Alice on iOS"), ("qb_original_messages", originals),
        ])
        var screen = try terminal.waitFor("all set on my side")
        var (header, quoted) = try Self.quoteAbove("all set on my side", in: screen)
        #expect(header.contains("│ ↪ Alice on iOS") && quoted.contains("│   ready for the release?"), "\(screen)")

        // A forward without words of its own: the quote alone, not the apps' placeholder text.
        let forwarded = #"[{"_id":"6555bab4924a346ee0000005","chat_dialog_id":"\#(dialog)","message":"the release notes are in the wiki","sender_id":\#(bob.id),"date_sent":1700117100000}]"#
        _ = try sandbox.sendMessage(token: token, dialogId: dialog, text: "[Forwarded_Message]", sendToChat: true, extra: [
            ("qb_message_action", "forward"), ("origin_sender_name", "Carol"), ("qb_original_messages", forwarded),
        ])
        screen = try terminal.waitFor("the release notes are in the wiki")
        #expect(!screen.contains("[Forwarded_Message]"))
        (header, quoted) = try Self.quoteAbove("the release notes are in the wiki", in: screen + "\n")
        #expect(quoted.contains("│ ↪ forwarded from Carol"), "\(screen)")
        try terminal.press("C-d")
    }

    @Test func aForwardEditAndDeleteFromTheViewReachTheOthers() throws {
        let sandbox = try SandboxProcess()
        let alice = try ChatUser("alice", sandbox: sandbox), bob = try ChatUser("bob", sandbox: sandbox)
        let carol = try ChatUser("carol", sandbox: sandbox)
        #expect(try alice.run(["send", "@" + carol.login, "hi carol"]).status == 0)
        #expect(try bob.run(["send", "@" + alice.login, "the wiki has the notes"]).status == 0)
        #expect(try alice.run(["send", "@" + bob.login, "thanks, reading them"]).status == 0)

        let bobTerminal = try TmuxSession(environment: ChatEndToEndTests.environment(bob))
        try bobTerminal.startChatctl("chat @\(alice.login)")
        try bobTerminal.waitFor("thanks, reading them")
        let terminal = try TmuxSession(environment: ChatEndToEndTests.environment(alice))
        try terminal.startChatctl("chat @\(bob.login)")
        // Bob's message may come after the cache's page (the catch-up): both on the screen first.
        try terminal.waitForScreen("both messages on Alice's screen") {
            $0.contains("thanks, reading them") && $0.contains("the wiki has the notes")
        }

        // f on Bob's message: the dialogs to pick from; typing narrows them to Carol's.
        try terminal.press("Tab")
        try terminal.press("Up")
        try terminal.type("f")
        try terminal.waitFor("forward to:")
        try terminal.type(String(carol.login.prefix(8)))
        try terminal.press("Enter")
        try terminal.waitFor("forwarded to \(carol.login)")
        var found: [String: Any]?
        try waitUntil("the forward in Carol's history", timeout: 10, every: 0.25) {
            found = try carol.history("@" + alice.login).first { $0["qb_message_action"] as? String == "forward" }
            return found != nil
        }
        let forward = try #require(found)
        #expect(forward["message"] as? String == "[Forwarded_Message]")
        #expect(forward["origin_sender_name"] as? String == bob.login)

        // e on her own message: its text in the input; Enter replaces it, for Bob too.
        try terminal.press("Tab")
        try terminal.type("e")
        try terminal.waitFor("editing: thanks, reading them")
        try terminal.type(" now")
        try terminal.press("Enter")
        try terminal.waitFor("thanks, reading them now")
        let edited = try bobTerminal.waitFor("thanks, reading them now")
        #expect(edited.contains("(edited)"), "\(edited)")

        // x asks first; y deletes it for everyone.
        try terminal.press("Tab")
        try terminal.type("x")
        try terminal.waitFor("delete this message? y/n")
        try terminal.type("y")
        try terminal.waitForScreen("the message gone") { !$0.contains("thanks, reading them") }
        try bobTerminal.waitForScreen("the message gone for Bob") { !$0.contains("thanks, reading them") }
        #expect(try !bob.history("@" + alice.login).contains { ($0["message"] as? String)?.hasPrefix("thanks, reading") == true })
        try terminal.press("C-d")
        try bobTerminal.press("C-d")
    }
}
