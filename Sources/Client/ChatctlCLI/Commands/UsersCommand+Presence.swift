#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChatView
import Diagnostics
import Messaging
import Presentation
import QuickBloxAPI

/// `users`' PRESENCE (docs/protocol.md §7, "Presence and last activity"): asked over a brief
/// chat connection (`PresenceSurvey`); chat out of reach costs the column, not the listing.
extension UsersCommand {
    /// At most this long for the chat connect (instead of the config's 15 s), and again for the answers.
    static let chatSeconds = 5.0

    /// What the server says of `users`' presence; nothing, and one line on stderr, when chat cannot be reached.
    static func presence(of users: [Int], session: MessagingSession, context: CommandContext) -> [Int: PeerPresence] {
        do {
            return try survey(users, session: session, context: context)
        } catch {
            context.io.warn("who is online is not shown: \((error as? Failure)?.message ?? String(describing: error))")
            return [:]
        }
    }

    /// `--online`: of QUERY's page, or of everyone the user shares a dialog with, those online now.
    /// Here chat out of reach is the command's failure: there would be nothing to list.
    func onlineUsers(_ found: UserSearchResult, search: UserSearch, session: MessagingSession,
                     context: CommandContext) throws -> (UserSearchResult, [Int: PeerPresence]) {
        let candidates = search == .everyone ? try session.service.dialogPeers() : found.users.map(\.id)
        let presence = try Self.survey(candidates, session: session, context: context)
        let online = candidates.filter { presence[$0] == .online }
        var result = found
        if search == .everyone {
            result.users = try session.service.users(ids: online)
            result.totalEntries = result.users.count
        } else {
            result.users = found.users.filter { presence[$0.id] == .online }
        }
        return (result, presence)
    }

    private static func survey(_ users: [Int], session: MessagingSession, context: CommandContext) throws -> [Int: PeerPresence] {
        guard !users.isEmpty else { return [:] }
        var config = session.config
        config.chatConnectTimeout = min(config.chatConnectTimeout, chatSeconds)
        let link = try context.chatLink(for: MessagingSession(config: config, session: session.session, service: session.service))
        return try PresenceSurvey.run(over: link, users: users, timeout: chatSeconds, now: Int(Date().timeIntervalSince1970))
    }

    /// The PRESENCE cell: `online`, `last seen 5 min ago`, `offline` (never seen), or empty (not told).
    static func column(_ presence: PeerPresence?, now: Int, clock: TimeLabels = TimeLabels(utcOffset: ChatCommand.utcOffset)) -> String {
        switch presence {
        case .online?: return "online"
        case .lastSeen(let at)?: return "last seen " + clock.lastSeen(at, now: now)
        case .offline?: return "offline"
        case nil: return ""
        }
    }

    /// The user object as the server sent it, with `presence` (`"online"`, `"offline"`, or null:
    /// not told) and `last_seen` (Unix seconds, or null) added at its end.
    static func json(_ raw: String, _ presence: PeerPresence?) -> String {
        let fields = ContactText.presenceFields(presence)
        let (state, seen) = (fields.presence.compactText, fields.lastSeen.compactText)
        guard let close = raw.lastIndex(of: "}") else { return raw }
        let empty = raw[..<close].last { !$0.isWhitespace } == "{"
        return raw[..<close] + (empty ? "" : ",") + #""presence":\#(state),"last_seen":\#(seen)"# + raw[close...]
    }
}
