#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CommandLineKit
import Diagnostics
import Messaging
import Presentation

/// `chatctl users [QUERY]`: everyone, page by page, or the users a query finds.
struct UsersCommand: Command {
    static let configuration = CommandConfiguration(
        name: "users",
        abstract: "List users, or find them by login, full name or email.",
        discussion: """
            Without QUERY, every user of the application, a page at a time. @login finds that login; an address \
            with @ in it finds that email; other text finds that login and full names containing it (3 characters \
            or more). When there are more pages, a line on stderr says how to get the next. \
            PRESENCE says whether each is online now, or when they were last seen, asked over a brief \
            chat connection (--offline: not asked; chat out of reach: left blank, and a line on stderr \
            says why; someone the server will not tell about: blank). --online lists only \
            those online now: among QUERY's users, or else among everyone you share a dialog with.

            In a pipe, a line a user, tab-separated, no header: id, login, full name, email, avatar (yes or empty), \
            presence (online, last seen …, offline, or empty).
            """,
        examples: [
            Example("Every user, 20 a page", "chatctl users"),
            Example("Find bob by login", "chatctl users @bob"),
            Example("Those whose full name contains smith", "chatctl users smith"),
            Example("Who of the people you talk to is online now", "chatctl users --online"),
            Example("The second page of 50", "chatctl users --page 2 -n 50"),
        ])

    @Arguments("QUERY", help: "@login, an email address, or text (words are joined with spaces).")
    var query: [String]
    @Option("page", metavar: "N", help: "Which page.", range: 1...1_000_000)
    var page = 1
    @Option("limit", short: "n", metavar: "N", help: "Users per page, 1 to 100.", range: 1...100, aliases: ["per-page"])
    var perPage = 20
    @Flag("online", help: "Only users online now.")
    var online: Bool
    @Flag("offline", help: "Do not connect to chat to ask who is online.")
    var offline: Bool
    @Flag("json", help: "Print an array of QuickBlox user objects, with \"presence\" and \"last_seen\".")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        if online && offline { throw context.usage("--online needs chat, which --offline does not connect to; use one of them") }
        let search = try UserSearch(parsing: query.joined(separator: " "))
        let session = try context.messagingSession(source: .server)
        let service = session.service
        var result = online && search == .everyone
            ? UserSearchResult(users: [], page: 1, perPage: perPage, totalEntries: 0)
            : try service.findUsers(search, page: page, perPage: perPage)
        var presence: [Int: PeerPresence] = [:]
        if online {
            (result, presence) = try onlineUsers(result, search: search, session: session, context: context)
        } else if !offline {
            presence = Self.presence(of: result.users.map(\.id), session: session, context: context)
        }
        let now = Int(Date().timeIntervalSince1970)
        if json {
            context.io.writeOut(JSONOutput.array(ofRaw: result.users.map { Self.json($0.rawJSON, presence[$0.id]) }))
        } else if !result.users.isEmpty {
            var listing = Listing(["ID", "LOGIN", "FULL NAME", "EMAIL", "AVATAR", "PRESENCE"])
            for user in result.users {
                listing.append([String(user.id), user.login ?? "", user.fullName ?? "", user.email ?? "", user.blobID == nil ? "" : "yes",
                                Self.column(presence[user.id], now: now)]
                    .map { TerminalText.sanitize($0, newlines: .asSpaces) })
            }
            context.io.writeOut(listing.render(context.listingLayout))
        }
        if result.users.isEmpty {
            let which = online ? " online" + (search == .everyone ? "" : " among those found") : search == .everyone ? "" : " match"
            context.io.writeErr("chatctl: no users\(which)\(page > 1 ? " on page \(page)" : "")\n")
        } else if result.hasMore {
            let pages = (result.totalEntries + perPage - 1) / perPage
            context.io.writeErr("chatctl: page \(page) of \(pages) (\(result.totalEntries) users); the next: --page \(page + 1)\n")
        }
        return .ok
    }
}
