#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CommandLineKit
import Diagnostics
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
            seconds, 2026-11-30, 2026-11-30T08:00:00Z, or an age like 30m, 2h, 7d.
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
    var limit: Int?
    @Option("before", metavar: "T", help: "Only messages sent before T.")
    var before: TimeArgument?
    @Option("since", metavar: "T", help: "Only messages sent after T.")
    var since: TimeArgument?
    @Flag("mark-read", help: "Mark the messages shown read.")
    var markRead: Bool
    @Flag("offline", help: SharedHelp.offline)
    var offline: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let now = Int(Date().timeIntervalSince1970)
        let limit = self.limit ?? 50
        let before = self.before?.unixTime(now: now)
        let since = self.since?.unixTime(now: now)
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
        } else {
            let transcript = Transcript(me: service.me, names: service.displayNames(Set(messages.map(\.senderID))),
                                        width: context.terminalWidth, color: context.useColor)
            context.io.writeOut(transcript.render(messages))
        }
        // Shown first, then marked: `displayed` says a person has seen them.
        if markRead {
            _ = try ReadMarking(session: session, context: context, overChat: true).mark(messages, dialogID: target.id)
        }
        return .ok
    }
}
