import CommandLineKit
import Diagnostics
import MessageCache
import Messaging

/// `chatctl dialogs`: your dialogs, newest activity first.
struct DialogsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "dialogs",
        abstract: "List your dialogs, newest activity first.",
        subcommands: [DialogsCreateCommand.self, DialogsShowCommand.self, DialogsRenameCommand.self, DialogsAddCommand.self,
                      DialogsRemoveCommand.self, DialogsLeaveCommand.self, DialogsDeleteCommand.self])

    @Option("type", metavar: "TYPE", help: "Only dialogs of this type.")
    var type: DialogType?
    @Option("limit", short: "n", metavar: "N", help: SharedHelp.limit, range: 1...100_000)
    var limit: Int?
    @Flag("offline", help: SharedHelp.offline)
    var offline: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let limit = self.limit ?? 100
        let source: DataSource = offline ? .cacheOnly : .server
        let service = try context.messagingService(source: source)
        // The table shows columns only: the dialogs' JSON is read for --json alone.
        var dialogs = try service.dialogs(type: type, limit: limit, source: source, withRawJSON: json)
        if source == .server {
            // The dialog list's unread counts may lag; the unread call is the server's own count.
            do throws(Failure) {
                try service.refreshUnreadCounts()
                dialogs = try service.dialogs(type: type, limit: limit, source: .cacheOnly, withRawJSON: json)
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
        // Only a private dialog's title, or an unnamed group's, is made of people's names.
        let names = service.displayNames(Set(dialogs.filter(Self.isTitledByOccupants).flatMap(\.occupantIDs)))
        var rows = [["NAME", "TYPE", "UNREAD", "LAST", "MESSAGE"]]
        for d in dialogs {
            rows.append([
                Self.title(of: d, me: service.me, names: names),
                MessagingService.typeName(d.type),
                d.unreadCount > 0 ? String(d.unreadCount) : "",
                d.lastMessageDateSent.map { TimeText.format(Double($0), "%Y-%m-%d %H:%M", in: .local) } ?? "",
                TerminalText.sanitize(d.lastMessage ?? "", newlines: .asSpaces),
            ])
        }
        context.io.writeOut(Table.render(rows, width: context.terminalWidth))
        return .ok
    }

    /// A group's name; for a private dialog, the other person's name.
    static func title(of dialog: CachedDialog, me: Int, names: [Int: String]) -> String {
        if isTitledByOccupants(dialog) {
            let others = dialog.occupantIDs.filter { $0 != me }.map { names[$0] ?? "user \($0)" }
            if !others.isEmpty { return TerminalText.sanitize(others.joined(separator: ", "), newlines: .asSpaces) }
        }
        return TerminalText.sanitize(dialog.name, newlines: .asSpaces)
    }

    static func isTitledByOccupants(_ dialog: CachedDialog) -> Bool { dialog.type == .private || dialog.name.isEmpty }
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
        // Each cell's length in Characters, counted once (counting is the cost here).
        let counts = rows.map { $0.map(Self.length) }
        var widths = [Int](repeating: 0, count: columns)
        for row in counts { for i in 0..<min(row.count, columns - 1) { widths[i] = min(max(widths[i], row[i]), 32) } }
        // Lines are put together as UTF-8 bytes: appending to a String checks each piece
        // (`dialogs --offline` spent a sixth of its instructions here; issue 11).
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 96)
        var line: [UInt8] = []
        line.reserveCapacity(160)
        for (cells, row) in zip(counts, rows) {
            line.removeAll(keepingCapacity: true)
            for (i, cell) in row.enumerated() {
                if i < columns - 1 {
                    var count = cells[i]
                    if count > widths[i] {
                        line += cell.prefix(widths[i] - 1).utf8
                        line += "…".utf8
                        count = widths[i]
                    } else {
                        line += cell.utf8
                    }
                    line += repeatElement(UInt8(ascii: " "), count: widths[i] - count + 2)
                } else {
                    line += cell.utf8
                }
            }
            if let width {
                // Cut to the terminal in Characters, as a person sees them.
                let text = String(decoding: line, as: UTF8.self)
                if text.count > width { line = Array((String(text.prefix(max(width - 1, 1))) + "…").utf8) }
            }
            while line.last == UInt8(ascii: " ") { line.removeLast() }
            out += line
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Characters in `text`: its bytes when all are printable ASCII (most cells; no
    /// "\r\n" pair there), without grapheme breaking.
    static func length(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil } ?? text.count
    }
}
