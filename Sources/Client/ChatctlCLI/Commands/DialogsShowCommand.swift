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

/// `chatctl dialogs show DIALOG`: one dialog in full, its occupants by name.
struct DialogsShowCommand: Command {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show one dialog in full, its occupants by name.",
        discussion: "Asks the server for the dialog as it is now and whether you muted it (and caches both), unless --offline.",
        examples: [
            Example("One group in full: owner, occupants, unread, muted", "chatctl dialogs show ops"),
            Example("The private dialog with bob, as the cache has it", "chatctl dialogs show @bob --offline"),
            Example("As the QuickBlox dialog object", "chatctl dialogs show ops --json"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Flag("offline", help: SharedHelp.offline)
    var offline: Bool
    @Flag("json", help: "Print the QuickBlox dialog object, with \"muted\" and \"muted_until\".")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(source: offline ? .cacheOnly : .server)
        var shown: CachedDialog
        if offline {
            shown = try service.resolve(dialog, source: .cacheOnly, createPrivate: false)
        } else {
            context.endExpiredMutes(service)
            shown = try service.currentDialog(dialog)
            // One dialog is cheap to ask about; the list shows the flag this leaves in the cache.
            do throws(Failure) { shown = try service.refreshMuted(shown) } catch {
                context.io.warn("whether it is muted was not read (\(error.message)); showing the cache's")
                // The dialog just fetched is the server's object, which carries no flag.
                if let cached = service.cachedDialog(id: shown.id) { (shown.muted, shown.mutedUntil) = (cached.muted, cached.mutedUntil) }
            }
        }
        if json {
            context.io.writeOut(JSONOutput.dialog(shown) + "\n")
            return .ok
        }
        let object = (try? JSONValue(parsing: shown.rawJSON)).flatMap { QBDialog(json: $0) }
        let owner = object?.userId
        func person(_ id: Int) -> String { Self.person(id, service) }
        func time(_ date: Date?) -> String { date.map { TimeText.format($0.timeIntervalSince1970, "%Y-%m-%d %H:%M", in: .local) } ?? "" }
        let names = service.displayNames(Set(shown.occupantIDs))
        var lines = [
            ("Dialog:", DialogTitle.of(shown, me: service.me, names: names)),
            ("Id:", shown.id.rawValue),
            ("Type:", MessagingService.typeName(shown.type)),
        ]
        if let owner { lines.append(("Owner:", person(owner) + (owner == service.me ? ", you" : ""))) }
        lines.append(("Created:", time(object?.createdAt)))
        lines.append(("Updated:", time(object?.updatedAt)))
        lines.append(("Unread:", String(shown.unreadCount)))
        lines.append(("Muted:", MuteLabel.detail(shown)))
        if let sent = shown.lastMessageDateSent {
            let text = TerminalText.sanitize(shown.lastMessage ?? "", newlines: .asSpaces)
            lines.append(("Last:", "\(TimeText.format(Double(sent), "%Y-%m-%d %H:%M", in: .local))  \(text)"))
        }
        lines.append(("Occupants:", String(shown.occupantIDs.count)))
        var out = lines.map { $0.0.padding(11) + $0.1 }.joined(separator: "\n") + "\n"
        for id in shown.occupantIDs {
            var notes: [String] = []
            if id == owner { notes.append("owner") }
            if id == service.me { notes.append("you") }
            out += "  " + person(id) + (notes.isEmpty ? "" : "  (\(notes.joined(separator: ", ")))") + "\n"
        }
        context.io.writeOut(out)
        return .ok
    }

    /// A dialog in a sentence, safe for a terminal: `'ops'`, or `the private dialog {id}`.
    static func label(_ dialog: CachedDialog) -> String {
        TerminalText.sanitize(MessagingService.label(dialog), newlines: .asSpaces)
    }

    /// The same, a private dialog named by the other person when the cache knows them:
    /// `the private dialog with Carol Danvers (@carol)`.
    static func label(_ dialog: CachedDialog, _ service: MessagingService) -> String {
        guard dialog.type == .private, let peer = dialog.occupantIDs.first(where: { $0 != service.me }),
              service.cachedUser(id: peer) != nil else { return label(dialog) }
        return "the private dialog with \(person(peer, service))"
    }

    /// A user as a line names them, safe for a terminal: `Carol Danvers (@carol)`, `@carol`
    /// (no full name, or the login again), `user 42` (not in the cache).
    static func person(_ id: Int, _ service: MessagingService) -> String {
        guard let user = service.cachedUser(id: id) else { return "user \(id)" }
        let name = user.fullName.flatMap { $0.isEmpty || $0 == user.login ? nil : $0 }
        return TerminalText.sanitize(name.map { "\($0) (@\(user.login))" } ?? "@\(user.login)", newlines: .asSpaces)
    }
}

private extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
