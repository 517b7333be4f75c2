#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatIdentifiers
import ChatView
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl dialogs`: your dialogs, newest activity first.
struct DialogsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "dialogs",
        abstract: "List your dialogs, newest activity first.",
        discussion: """
            In a pipe, a line a dialog, tab-separated, no header: id, name, type, unread count, muted (muted or \
            empty), time of the last message (ISO 8601 UTC, or empty), the last message.
            """,
        subcommands: [DialogsCreateCommand.self, DialogsShowCommand.self, DialogsRenameCommand.self, DialogsAddCommand.self,
                      DialogsRemoveCommand.self, DialogsLeaveCommand.self, DialogsDeleteCommand.self, DialogsMuteCommand.self,
                      DialogsUnmuteCommand.self],
        examples: [
            Example("Your dialogs, newest activity first", "chatctl dialogs"),
            Example("Only groups, at most 10", "chatctl dialogs --type group -n 10"),
            Example("From the cache, without the network", "chatctl dialogs --offline"),
            Example("Every dialog as a QuickBlox dialog object", "chatctl dialogs --json"),
        ])

    @Option("type", metavar: "TYPE", help: "Only dialogs of this type.")
    var type: DialogType?
    @Option("limit", short: "n", metavar: "N", help: SharedHelp.limit, range: 1...100_000)
    var limit = 100
    @Flag("offline", help: SharedHelp.offline)
    var offline: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let source: DataSource = offline ? .cacheOnly : .server
        let service = try context.messagingService(source: source)
        if source == .server { context.endExpiredMutes(service) }
        // The table shows columns only: the dialogs' JSON is read for --json alone.
        var dialogs = try service.dialogs(type: type, limit: limit, source: source, withRawJSON: json)
        if source == .server {
            // The dialog list's unread counts may lag; the unread call is the server's own count.
            do throws(Failure) {
                try service.refreshUnreadCounts()
                dialogs = try service.dialogs(type: type, limit: limit, source: .cacheOnly, withRawJSON: json)
            } catch {
                context.io.warn("unread counts not refreshed (\(error.message)); showing the dialog list's")
            }
        }
        // BLOCKED, and JSON's "blocked": whom the cache last knew the user blocks (read by block,
        // unblock, blocked, send and the chat view over chat), no chat connection here.
        let blocked = service.blockedUsers()
        func blocks(_ dialog: CachedDialog) -> Bool {
            dialog.type == .private && dialog.occupantIDs.contains { $0 != service.me && blocked.contains($0) }
        }
        if json {
            context.io.writeOut(JSONOutput.array(ofRaw: dialogs.map { JSONOutput.dialog($0, blocked: blocks($0)) }))
            return .ok
        }
        if dialogs.isEmpty {
            context.io.writeErr("chatctl: no dialogs\(offline ? " in the cache" : "")\n")
            return .ok
        }
        // Only a private dialog's title, or an unnamed group's, is made of people's names:
        // asked of the server again (one request a hundred people), so a name changed since shows.
        let named = Set(dialogs.filter(DialogTitle.isMadeOfOccupants).flatMap(\.occupantIDs)).subtracting([service.me])
        if !offline { try? service.fetchUsers(Array(named), again: true) }
        // Titles from every cached dialog, not only those listed: a name two dialogs share
        // is shown with the end of each id, in a form commands accept.
        let titles = try service.dialogNameIndex(showing: dialogs)
        // MUTED is the cache's flag, set by mute, unmute and show: no request per dialog here.
        let layout = context.listingLayout
        // BLOCKED only while one of them is: a list without blocks looks as it always did (and pipes never carry it).
        let blockedColumn: Listing.Column = .onTerminals("BLOCKED")
        let anyBlocked = dialogs.contains(where: blocks)
        var listing = Listing([.inPipes("ID"), "NAME", "TYPE", "UNREAD", "MUTED"] + (anyBlocked ? [blockedColumn] : []) + ["LAST", "MESSAGE"])
        let now = Int(Date().timeIntervalSince1970), clock = TimeLabels(utcOffset: ChatCommand.utcOffset)
        for d in dialogs {
            listing.append([
                d.id.rawValue,
                TerminalText.sanitize(titles.shownTitle(of: d), newlines: .asSpaces),
                MessagingService.typeName(d.type),
                d.unreadCount > 0 || layout == .tabSeparated ? String(d.unreadCount) : "",
                MuteLabel.column(d, now: now, clock: clock),
            ] + (anyBlocked ? [blocks(d) ? "blocked" : ""] : []) + [
                layout.time(d.lastMessageDateSent),
                TerminalText.sanitize(d.lastMessage ?? "", newlines: .asSpaces),
            ])
        }
        context.io.writeOut(listing.render(layout))
        return .ok
    }

}
