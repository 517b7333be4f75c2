#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation

/// `chatctl contacts`: the contact list (an XMPP roster with subscriptions, as QuickBlox's
/// SDKs keep it), with the requests waiting for an answer, over a brief chat connection
/// (`ContactExchange`).
struct ContactsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "contacts",
        abstract: "List your contacts and who asks to be one.",
        discussion: """
            A contact sees when you are online, you see when they are, or both: STATE says which \
            (both, they see you, you see them), and 'requested' while your request waits for their answer, \
            'asks you' while theirs waits for yours ('chatctl contacts accept' or 'reject'). \
            PRESENCE, for those you see, is online, last seen …, or offline. Asked over a brief \
            chat connection; a request from someone who accepted yours is granted on the way, as \
            QuickBlox's apps grant it.

            In a pipe, a line a contact, tab-separated, no header: id, login, full name, state, presence.
            """,
        subcommands: [ContactsAddCommand.self, ContactsAcceptCommand.self, ContactsRejectCommand.self, ContactsRemoveCommand.self],
        examples: [
            Example("Your contacts, and who asks to be one", "chatctl contacts"),
            Example("The logins of those who ask you, in a pipe", "chatctl contacts | awk -F'\\t' '$4 ~ /asks you/ { print $2 }'"),
            Example("Every contact as JSON, with \"subscription\", \"ask\" and \"pending\"", "chatctl contacts --json"),
        ])

    @Flag("json", help: "Print an array of contacts: id, login, full_name, subscription, ask, pending, presence, last_seen.")
    var json: Bool

    static let userHelp = "The user: login, @login, id, or a full name one user has."
    static let changedJSONHelp = "Print the contact after the change as JSON, as 'contacts --json' lists it."

    /// At most this long for each answer of the chat server.
    static let answerSeconds = 10.0

    func run(_ context: CommandContext) throws -> ExitCode {
        let session = try context.messagingSession(source: .server)
        let service = session.service
        let runner = try Self.open(session, context: context)
        let now = Int(Date().timeIntervalSince1970)
        let presence = runner.presence(now: now)
        let contacts = runner.exchange.book.contacts
        runner.close()
        let users = try Self.users(contacts.map(\.userID), service: service)
        let sorted = contacts.sorted { a, b in
            if a.asksYou != b.asksYou { return a.asksYou }
            return Self.sortName(users[a.userID]) < Self.sortName(users[b.userID])
        }
        if json {
            let items = sorted.map { ContactText.json($0, login: users[$0.userID]?.login, fullName: users[$0.userID]?.fullName, presence: presence[$0.userID]) }
            context.io.writeOut(JSONOutput.line(.array(items)))
            return .ok
        }
        guard !sorted.isEmpty else {
            context.io.writeErr("chatctl: no contacts ('chatctl contacts add USER' asks someone)\n")
            return .ok
        }
        var listing = Listing(["ID", "LOGIN", "FULL NAME", "STATE", "PRESENCE"])
        for contact in sorted {
            let user = users[contact.userID]
            listing.append([String(contact.userID), user?.login ?? "", user?.fullName ?? "", ContactText.state(contact),
                            UsersCommand.column(presence[contact.userID], now: now)]
                .map { TerminalText.sanitize($0, newlines: .asSpaces) })
        }
        context.io.writeOut(listing.render(context.listingLayout))
        return .ok
    }

    /// The exchange, connected and the list read (what is due granted).
    static func open(_ session: MessagingSession, context: CommandContext) throws -> ContactExchange.Runner {
        let runner = ContactExchange.Runner(link: try context.chatLink(for: session), timeout: answerSeconds)
        try runner.open()
        return runner
    }

    /// The users by id, as the server has them now (one request a hundred).
    static func users(_ ids: [Int], service: MessagingService) throws -> [Int: FoundUser] {
        Dictionary(try service.users(ids: ids).map { ($0.id, $0) }) { $1 }
    }

    private static func sortName(_ user: FoundUser?) -> String { (user?.fullName ?? user?.login ?? "").lowercased() }

    /// What add, accept, reject and remove share: USER named as everywhere (login, @login, id,
    /// full name), not the user themselves; the change made; a sentence, or with --json the contact after it.
    static func change(_ change: ContactExchange.Change, _ word: String, json: Bool, context: CommandContext) throws -> ExitCode {
        let session = try context.messagingSession(source: .server)
        let user = try session.service.user(named: word)
        let label = "@" + user.login
        if user.id == session.service.me {
            throw Failure(.invalidInput, "\(TerminalText.sanitize(label, newlines: .asSpaces)) is you", hint: "name someone else")
        }
        let runner = try open(session, context: context)
        let after = try runner.make(change, of: user.id, label: label)
        let now = Int(Date().timeIntervalSince1970)
        let presence = after?.seesThem == true ? runner.presence(now: now)[user.id] : nil
        runner.close()
        let shown = TerminalText.sanitize(label, newlines: .asSpaces)
        let contact = after ?? Contact(userID: user.id, subscription: .none, isListed: false)
        let state = after.map { " (\(ContactText.state($0)))" } ?? ""
        let line: String
        switch change {
        case .add: line = "asked \(shown) to be your contact\(state)"
        case .accept: line = "accepted \(shown)'s contact request\(state)"
        case .reject: line = "refused \(shown)'s contact request"
        case .remove: line = "removed \(shown) from your contacts"
        }
        context.tellChange(line, json: json ? JSONOutput.line(ContactText.json(contact, login: user.login, fullName: user.fullName, presence: presence)) : nil)
        return .ok
    }
}
