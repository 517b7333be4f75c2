#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl history DIALOG`: a transcript, oldest first.
struct HistoryCommand: Command {
    static let configuration = CommandConfiguration(
        name: "history",
        abstract: "Show a dialog's messages, oldest first.",
        discussion: """
            Your own messages end with their state: ✓ on the server, ✓✓ delivered \
            to someone else, ✓✓ read once someone else has read it (in colour on a \
            terminal). Reading history does not mark messages read unless \
            --mark-read is given: then the messages shown that others sent are \
            marked read, and their senders are told over chat. Times (T) are unix \
            seconds, 2026-11-30, 2026-11-30T08:00:00Z, or an age like 30m, 2h, 7d. \
            --ids starts each line with the message's id, which edit, delete, \
            download, forward and send --reply-to take. A reply shows what it \
            quotes first ('↪ alice: first line…'), a forward whom it is from \
            ('↪ forwarded from alice: …').

            Ages combine (2h30m, 1w2d). On a terminal a transcript longer than the screen \
            goes through $PAGER (less -R when unset; PAGER= or cat for none; --no-pager). \
            In a pipe, a line a message, tab-separated, no header: message id, when it \
            was sent (ISO 8601 UTC), sender id, sender name, state of your own message \
            (sent, delivered, read; empty for others'), what a reply quotes or whom a \
            forward is from ('↪ alice: first line…'; empty for others), the text with its attachments.
            """,
        examples: [
            Example("The last 20 messages with bob", "chatctl history @bob -n 20"),
            Example("What ops said in the last two hours, marking it read", "chatctl history ops --since 2h --mark-read"),
            Example("November's messages, from the cache only", "chatctl history ops --since 2026-11-01 --before 2026-12-01 --offline"),
            Example("As JSON: each message's id is its _id", "chatctl history ops -n 5 --json"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Option("limit", short: "n", metavar: "N", help: SharedHelp.limit, range: 1...100_000)
    var limit = 50
    @Option("before", metavar: "T", help: SharedHelp.before)
    var before: TimeArgument?
    @Option("since", metavar: "T", help: SharedHelp.since)
    var since: TimeArgument?
    @Flag("mark-read", help: "Mark the messages shown read.")
    var markRead: Bool
    @Flag("offline", help: SharedHelp.offline)
    var offline: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool
    @Flag("no-pager", help: "Never page the transcript through $PAGER.")
    var noPager: Bool
    @Flag("ids", help: "Start each line with the message's id.")
    var ids: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let now = Int(Date().timeIntervalSince1970)
        let (since, before) = try TimeArgument.range(since: self.since, before: self.before, now: now)
        if markRead && offline {
            throw context.usage("--mark-read tells the server: it cannot be used with --offline")
        }
        let source: DataSource = offline ? .cacheOnly : .server
        let session = try context.messagingSession(source: source)
        let service = session.service
        let target = try service.resolve(self.dialog, source: source, createPrivate: false)
        let messages = try service.history(dialogID: target.id, limit: limit, before: before, since: since,
                                           source: source, markRead: false)
        if json {
            context.io.writeOut(JSONOutput.array(ofRaw: messages.map { JSONOutput.message($0, me: service.me) }))
        } else if messages.isEmpty {
            context.io.writeErr("chatctl: no messages\(since != nil || before != nil ? " in that time range" : "")\n")
        } else if context.listingLayout == .tabSeparated {
            let people = messages.map(\.senderID) + messages.flatMap { $0.quoted?.originals.map(\.senderID) ?? [] }
            context.io.writeOut(Listing.tabSeparated(Self.fields(messages, me: service.me, names: service.displayNames(Set(people)))))
        } else {
            // The senders, and whom the replies and forwards quote.
            let people = messages.map(\.senderID) + messages.flatMap { $0.quoted?.originals.map(\.senderID) ?? [] }
            var transcript = Transcript(me: service.me, names: service.displayNames(Set(people)),
                                        width: context.terminalWidth, color: context.useColor)
            transcript.showIDs = ids
            context.writeOut(transcript.render(messages), pager: !noPager)
        }
        // Shown first, then marked: `displayed` says a person has seen them.
        if markRead {
            _ = try ReadMarking(session: session, context: context, overChat: true).mark(messages, dialogID: target.id)
        }
        return .ok
    }

    /// Each message's fields in a pipe (the help's order): exact values, one line each.
    static func fields(_ messages: [CachedMessage], me: Int, names: [Int: String]) -> [[String]] {
        messages.map { m in
            [m.id, TimeText.iso8601(Double(m.dateSent)), String(m.senderID),
             TerminalText.sanitize(names[m.senderID] ?? "", newlines: .asSpaces),
             m.senderID == me ? m.status.rawValue : "",
             // A reply's quote or a forward's origin before the text, so the free text stays last.
             QuoteLine.of(m, names: names) ?? "", AttachmentLabel.body(of: m)]
        }
    }
}
