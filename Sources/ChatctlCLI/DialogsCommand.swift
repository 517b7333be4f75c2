import MessageCache
import Messaging

/// `chatctl dialogs` lists; `chatctl dialogs create` creates.
struct DialogsCommand {
    let context: CommandContext

    func run() throws -> ExitCode {
        if context.parsed.path.last == "create" { return try create() }
        let offline = context.parsed.flag("offline")
        var type: DialogType?
        switch context.parsed.value("type") {
        case nil: type = nil
        case "private": type = .private
        case "group": type = .group
        case "public": type = .publicGroup
        case let other?: throw CommandError.usage("--type must be private, group or public, not '\(other)'", path: context.parsed.path)
        }
        let limit = try context.intOption("limit", default: 100, range: 1...100_000)
        let service = try context.messagingService(offline: offline)
        let dialogs = try messaging { () throws(MessagingError) in try service.dialogs(type: type, limit: limit, offline: offline) }
        if context.wantsJSON {
            context.io.writeOut(JSONOutput.array(ofRaw: dialogs.map(\.rawJSON)))
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

    private func create() throws -> ExitCode {
        let parsed = context.parsed
        let service = try context.messagingService(offline: false)
        let dialog: CachedDialog
        switch (parsed.value("private"), parsed.value("group")) {
        case (let peer?, nil):
            guard parsed.value("with") == nil else { throw CommandError.usage("--with goes with --group", path: parsed.path) }
            let login = peer.hasPrefix("@") ? String(peer.dropFirst()) : peer
            dialog = try messaging { () throws(MessagingError) in
                try service.resolve(.user(login: login), offline: false, createPrivate: true)
            }
        case (nil, let name?):
            guard !name.isEmpty else { throw CommandError.usage("--group needs a name", path: parsed.path) }
            let logins = (parsed.value("with") ?? "").split(separator: ",").map { $0.trimmingPrefix("@").trimmingSpaces() }.filter { !$0.isEmpty }
            dialog = try messaging { () throws(MessagingError) in
                let ids = try logins.map { login throws(MessagingError) in try service.user(login: login, offline: false).id }
                return try service.createDialog(type: .group, name: name, occupants: ids)
            }
        default:
            throw CommandError.usage("give either --private @LOGIN or --group NAME [--with @A,@B]", path: parsed.path)
        }
        if context.wantsJSON {
            context.io.writeOut(dialog.rawJSON + "\n")
        } else {
            context.io.writeOut("\(MessagingService.typeName(dialog.type).capitalizedFirst) dialog \(dialog.id)\(dialog.name.isEmpty ? "" : " '\(TerminalText.sanitize(dialog.name, keepNewlines: false))'").\n")
        }
        return .ok
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
