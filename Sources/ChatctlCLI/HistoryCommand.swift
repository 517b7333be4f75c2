#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CommandLineKit
import Messaging

/// `chatctl history DIALOG`: a transcript, oldest first.
struct HistoryCommand: Command {
    static let configuration = CommandConfiguration(
        name: "history",
        abstract: "Show a dialog's messages, oldest first.",
        discussion: "Reading history does not mark messages read unless --mark-read is given. Times (T) are unix seconds, 2026-11-30, 2026-11-30T08:00:00Z, or an age like 30m, 2h, 7d.")

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: String
    @Option("limit", short: "n", metavar: "N", help: SharedHelp.limit)
    var limit: String?
    @Option("before", metavar: "T", help: "Only messages sent before T.")
    var before: String?
    @Option("since", metavar: "T", help: "Only messages sent after T.")
    var since: String?
    @Flag("mark-read", help: "Mark the fetched messages read.")
    var markRead: Bool
    @Flag("offline", help: SharedHelp.offline)
    var offline: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let now = Int(Date().timeIntervalSince1970)
        let limit = try context.integer($limit, default: 50, range: 1...100_000)
        let before = try context.time($before, now: now)
        let since = try context.time($since, now: now)
        let reference = try messaging { () throws(MessagingError) in try DialogReference(parsing: dialog) }
        let service = try context.messagingService(offline: offline)
        let messages = try messaging { () throws(MessagingError) in
            let dialog = try service.resolve(reference, offline: offline, createPrivate: false)
            return try service.history(dialogID: dialog.id, limit: limit, before: before, since: since,
                                             offline: offline, markRead: markRead)
        }
        if json {
            context.io.writeOut(JSONOutput.array(ofRaw: messages.map(\.rawJSON)))
            return .ok
        }
        let transcript = Transcript(me: service.me, names: service.displayNames(Set(messages.map(\.senderID))),
                                    width: context.terminalWidth, color: context.useColor)
        context.io.writeOut(transcript.render(messages))
        return .ok
    }
}
