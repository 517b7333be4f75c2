#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Messaging

/// `chatctl history DIALOG`: a transcript, oldest first.
struct HistoryCommand {
    let context: CommandContext

    func run() throws -> ExitCode {
        let parsed = context.parsed
        let offline = parsed.flag("offline")
        let now = Int(Date().timeIntervalSince1970)
        let limit = try context.intOption("limit", default: 50, range: 1...100_000)
        let before = try context.timeOption("before", now: now)
        let since = try context.timeOption("since", now: now)
        let reference = try messaging { () throws(MessagingError) in try DialogReference(parsing: parsed.arguments("DIALOG").first ?? "") }
        let service = try context.messagingService(offline: offline)
        let messages = try messaging { () throws(MessagingError) in
            let dialog = try service.resolve(reference, offline: offline, createPrivate: false)
            return try service.history(dialogID: dialog.id, limit: limit, before: before, since: since,
                                             offline: offline, markRead: parsed.flag("mark-read"))
        }
        if context.wantsJSON {
            context.io.writeOut(JSONOutput.array(ofRaw: messages.map(\.rawJSON)))
            return .ok
        }
        let transcript = Transcript(me: service.me, names: service.displayNames(Set(messages.map(\.senderID))),
                                    width: context.terminalWidth, color: context.useColor)
        context.io.writeOut(transcript.render(messages))
        return .ok
    }
}
