import CommandLineKit
import Diagnostics
import Messaging
import Presentation

/// `chatctl blocked`: whom the user blocks, read from the chat server.
struct BlockedCommand: Command {
    static let configuration = CommandConfiguration(
        name: "blocked",
        abstract: "List the users you block.",
        discussion: """
            Read from your privacy list on the chat server (the one 'chatctl block' changes), \
            whichever app blocked them. Those who block you are not listed: their lists are \
            their own. With nobody blocked, a line on stderr says so.

            In a pipe, a line a user, tab-separated, no header: id, login, full name.
            """,
        examples: [
            Example("Whom you block", "chatctl blocked"),
            Example("Their logins, one a line", "chatctl blocked --json | jq -r '.[].login'"),
        ])

    @Flag("json", help: "Print an array of QuickBlox user objects.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let list = try context.overBlockList(session) { _, ask throws(Failure) in try BlockListExchange.read(ask) }
        let ids = list.blockedUserIDs
        service.rememberBlocked(ids)
        let found = try service.users(ids: ids)
        if json {
            let known = Dictionary(found.map { ($0.id, $0.rawJSON) }, uniquingKeysWith: { first, _ in first })
            context.io.writeOut(JSONOutput.array(ofRaw: ids.map { known[$0] ?? #"{"id":\#($0)}"# }))
        } else if !ids.isEmpty {
            let known = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var listing = Listing(["ID", "LOGIN", "FULL NAME"])
            for id in ids {
                listing.append([String(id), known[id]?.login ?? "", known[id]?.fullName ?? ""]
                    .map { TerminalText.sanitize($0, newlines: .asSpaces) })
            }
            context.io.writeOut(listing.render(context.listingLayout))
        }
        if ids.isEmpty { context.io.writeErr("chatctl: you block nobody\n") }
        return .ok
    }
}
