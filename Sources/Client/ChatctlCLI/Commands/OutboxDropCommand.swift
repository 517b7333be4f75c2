import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl outbox drop ID…`: gives up on undelivered messages, for one that can
/// never go as queued (its file changed or vanished, a dialog that is gone).
struct OutboxDropCommand: Command {
    static let configuration = CommandConfiguration(
        name: "drop",
        abstract: "Remove messages from the outbox without sending them.",
        discussion: """
            ID is a message's id as 'chatctl outbox' shows it (its first characters \
            are enough when no other message starts with them). The outbox's own \
            copies of its files go with it; the files you named stay. A message \
            that another chatctl is sending right now is left alone.
            """,
        examples: [
            Example("Give up on a message: its id as 'chatctl outbox' shows it, or its start", "chatctl outbox drop 3f9a2c"),
            Example("Give up on two, and print what was dropped as JSON", "chatctl outbox drop 3f9a2c 71be04 --json"),
        ])

    @Arguments("ID", help: "Outbox message ids (client_message_id), or unique prefixes of them.")
    var ids: [String]
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        guard !ids.isEmpty else {
            throw UsageError(message: "name the messages to drop (see chatctl outbox)", path: ["outbox", "drop"])
        }
        let service = try context.messagingService(source: .cacheOnly)
        let pending = try service.pendingOutbox().map(\.clientMessageID)
        // Every id is resolved before anything is removed: one typo drops nothing.
        let resolved = try ids.map { id throws -> String in try Self.resolve(id, among: pending) }
        var dropped: [String] = []
        var busy: [(String, Int)] = []
        for id in Self.unique(resolved) {
            switch try service.dropFromOutbox(clientMessageID: id) {
            case .dropped: dropped.append(id)
            case .notFound: break  // delivered meanwhile: nothing left to drop
            case .inUse(let pid): busy.append((id, pid))
            }
        }
        if json {
            context.io.writeOut(JSONOutput.line(.object(["dropped": .array(dropped.map(JSONValue.string))])))
        } else {
            context.io.writeErr("chatctl: dropped \(dropped.count) message\(dropped.count == 1 ? "" : "s") from the outbox\n")
        }
        if let (id, pid) = busy.first {
            throw Failure(.failure,
                "message \(id) is being sent by process \(pid) right now; not dropped",
                hint: "wait for it to finish or stop it, then try again")
        }
        return .ok
    }

    /// The one pending id equal to `id` or starting with it (at least 4 characters).
    static func resolve(_ id: String, among pending: [String]) throws -> String {
        if pending.contains(id) { return id }
        let shown = TerminalText.sanitize(id, newlines: .asSpaces)
        guard id.count >= 4 else {
            throw UsageError(message: "'\(shown)' is too short to name a message: give at least 4 characters of its id", path: ["outbox", "drop"])
        }
        let matches = pending.filter { $0.hasPrefix(id) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw UsageError(message: "no message '\(shown)' in the outbox (see chatctl outbox)", path: ["outbox", "drop"])
        default: throw UsageError(message: "'\(shown)' names \(matches.count) messages in the outbox: give more of the id", path: ["outbox", "drop"])
        }
    }

    static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
