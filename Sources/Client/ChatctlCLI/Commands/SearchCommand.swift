#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl search QUERY`: full-text search of the local cache, ranked, with
/// the matching words highlighted (brackets, or bold on a terminal).
struct SearchCommand: Command {
    static let configuration = CommandConfiguration(
        name: "search",
        abstract: "Search cached messages, best matches first.",
        discussion: """
            Searches the local cache ('chatctl sync' fills it): the text of messages and \
            the names of their attachments. QUERY reads as in a web search: every word \
            must occur, -word leaves out the messages that have it, "a phrase" is a \
            phrase, prefix* a word's start, OR (in capitals) takes either side; a word \
            with punctuation in it, such as a file name (cat.jpg), is taken as a phrase.

            In a pipe, a line a message, tab-separated, no header: message id, dialog id, dialog name, when \
            it was sent (ISO 8601 UTC), sender id, sender name, the text around the match with matching words \
            in [brackets].
            """,
        examples: [
            Example("Cached messages that mention the deploy, best first", "chatctl search deploy"),
            Example("A phrase, in ops only", "chatctl search '\"release notes\"' --dialog ops"),
            Example("Friday, but not the messages that mention carol", "chatctl search 'friday -carol'"),
            Example("Attachments by name", "chatctl search cat.jpg"),
            Example("Fill the cache first, then the best 5 as JSON", "chatctl sync && chatctl search invoice -n 5 --json"),
        ])

    @Argument("QUERY", help: "What to look for.")
    var query: String
    @Option("dialog", metavar: "DIALOG", help: "Only in this dialog.")
    var dialog: DialogReference?
    @Option("limit", short: "n", metavar: "N", help: SharedHelp.limit, range: 1...10_000)
    var limit = 20
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(source: .cacheOnly)
        var dialogID: DialogID?
        if let dialog {
            dialogID = try service.resolve(dialog, source: .cacheOnly, createPrivate: false).id
        }
        let style: SnippetStyle = json || !context.useColor ? .brackets : .ansiBold
        let hits: [SearchHit]
        do { hits = try service.search(query, dialogID: dialogID, limit: limit, style: style) } catch {
            throw Failure(.invalidInput, "bad search query '\(TerminalText.sanitize(query, newlines: .asSpaces))': \(error.message)",
                                                        hint: "every word must occur; -word leaves out, \"a phrase\", prefix*, OR")
        }
        if json {
            let objects = hits.map { JSONOutput.message($0.message, me: service.me, extra: ["snippet": .string($0.snippet)]) }
            context.io.writeOut(JSONOutput.array(ofRaw: objects))
            return .ok
        }
        if hits.isEmpty { context.io.writeErr("chatctl: no cached message matches\n"); return .ok }
        let names = service.displayNames(Set(hits.map(\.message.senderID)))
        var dialogNames: [DialogID: String] = [:]
        for hit in hits where dialogNames[hit.message.dialogID] == nil {
            if let named = service.namedDialog(id: hit.message.dialogID) { dialogNames[named.dialog.id] = DialogTitle.of(named, me: service.me) }
        }
        let pipe = context.listingLayout == .tabSeparated
        var fields: [[String]] = []
        for hit in hits {
            let m = hit.message
            let who = m.senderID == service.me ? "you" : TerminalText.sanitize(names[m.senderID] ?? "user \(m.senderID)", newlines: .asSpaces)
            // The snippet's own markers are ours; everything else in it came from a user.
            let snippet = style == .ansiBold
                ? TerminalText.sanitize(hit.snippet.replacingBoldMarkers(), newlines: .asSpaces).restoringBoldMarkers()
                : TerminalText.sanitize(hit.snippet, newlines: .asSpaces)
            let time = TimeText.format(Double(m.dateSent), "%Y-%m-%d %H:%M", in: .local)
            let shown = AttachmentLabel.body(of: m, text: snippet).replacing("\n", with: " ")
            if pipe {
                let sender = TerminalText.sanitize(names[m.senderID] ?? "", newlines: .asSpaces)
                fields.append([m.id, m.dialogID.rawValue, dialogNames[m.dialogID] ?? "", TimeText.iso8601(Double(m.dateSent)),
                               String(m.senderID), sender, shown])
                continue
            }
            context.io.writeOut("\(dialogNames[m.dialogID] ?? m.dialogID.rawValue)  \(time)  \(who): \(shown)\n")
        }
        if pipe { context.io.writeOut(Listing.tabSeparated(fields)) }
        return .ok
    }
}

private extension String {
    // Swap our ANSI bold markers for private-use characters while sanitising, then back.
    func replacingBoldMarkers() -> String {
        replacing(SnippetStyle.ansiBold.open, with: "\u{E000}").replacing(SnippetStyle.ansiBold.close, with: "\u{E001}")
    }
    func restoringBoldMarkers() -> String {
        replacing("\u{E000}", with: SnippetStyle.ansiBold.open).replacing("\u{E001}", with: SnippetStyle.ansiBold.close)
    }
}
