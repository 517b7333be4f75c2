import CommandLineKit
import MessageCache
import Messaging

/// `chatctl dialogs`: your dialogs, newest activity first.
struct DialogsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "dialogs",
        abstract: "List your dialogs, newest activity first.",
        subcommands: [DialogsCreateCommand.self])

    @Option("type", metavar: "TYPE", help: "Only dialogs of this type.", completion: .choices(["private", "group", "public"]))
    var type: String?
    @Option("limit", short: "n", metavar: "N", help: SharedHelp.limit)
    var limit: String?
    @Flag("offline", help: SharedHelp.offline)
    var offline: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        var dialogType: DialogType?
        switch type {
        case nil: dialogType = nil
        case "private": dialogType = .private
        case "group": dialogType = .group
        case "public": dialogType = .publicGroup
        case let other?: throw context.usage("--type must be private, group or public, not '\(other)'")
        }
        let limit = try context.integer($limit, default: 100, range: 1...100_000)
        let service = try context.messagingService(offline: offline)
        var dialogs = try messaging { () throws(MessagingError) in try service.dialogs(type: dialogType, limit: limit, offline: offline) }
        if !offline {
            // The dialog list's unread counts may lag; the unread call is the server's own count.
            do throws(MessagingError) {
                try service.refreshUnreadCounts()
                dialogs = try service.dialogs(type: dialogType, limit: limit, offline: true)
            } catch {
                context.io.writeErr("chatctl: unread counts not refreshed (\(error.message)); showing the dialog list's\n")
            }
        }
        if json {
            context.io.writeOut(JSONOutput.array(ofRaw: dialogs.map(JSONOutput.dialog)))
            return .ok
        }
        if dialogs.isEmpty {
            context.io.writeErr("chatctl: no dialogs\(offline ? " in the cache" : "")\n")
            return .ok
        }
        let names = service.displayNames(Set(dialogs.flatMap(\.occupantIDs)))
        var rows = [["NAME", "TYPE", "UNREAD", "LAST", "MESSAGE"]]
        for d in dialogs {
            rows.append([
                Self.title(of: d, me: service.me, names: names),
                MessagingService.typeName(d.type),
                d.unreadCount > 0 ? String(d.unreadCount) : "",
                d.lastMessageDateSent.map { TimeText.format(Double($0), "%Y-%m-%d %H:%M", utc: false) } ?? "",
                TerminalText.sanitize(d.lastMessage ?? "", keepNewlines: false),
            ])
        }
        context.io.writeOut(Table.render(rows, width: context.terminalWidth))
        return .ok
    }

    /// A group's name; for a private dialog, the other person's name.
    static func title(of dialog: CachedDialog, me: Int, names: [Int: String]) -> String {
        if dialog.type == .private || dialog.name.isEmpty {
            let others = dialog.occupantIDs.filter { $0 != me }.map { names[$0] ?? "user \($0)" }
            if !others.isEmpty { return TerminalText.sanitize(others.joined(separator: ", "), keepNewlines: false) }
        }
        return TerminalText.sanitize(dialog.name, keepNewlines: false)
    }
}

/// Runs a Messaging step, turning its error into a CommandError.
func messaging<T>(_ body: () throws(MessagingError) -> T) throws(CommandError) -> T {
    do { return try body() } catch { throw .messaging(error) }
}

extension StringProtocol {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    func trimmingPrefix(_ p: String) -> String { hasPrefix(p) ? String(dropFirst(p.count)) : String(self) }
}
extension Substring {
    func trimmingSpaces() -> String { String(self).trimmingSpaces() }
}

/// Left-aligned columns separated by two spaces; the last column is cut to
/// the terminal width (when there is one).
enum Table {
    static func render(_ rows: [[String]], width: Int?) -> String {
        guard let columns = rows.first?.count, columns > 0 else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() where i < columns - 1 { widths[i] = min(max(widths[i], cell.count), 32) } }
        var out = ""
        for row in rows {
            var line = ""
            for (i, cell) in row.enumerated() {
                if i < columns - 1 {
                    let text = cell.count > widths[i] ? String(cell.prefix(widths[i] - 1)) + "…" : cell
                    line += text + String(repeating: " ", count: widths[i] - text.count + 2)
                } else {
                    line += cell
                }
            }
            if let width, line.count > width { line = String(line.prefix(max(width - 1, 1))) + "…" }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
