import CommandLineKit
import Diagnostics
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl push send TEXT --to USERS --tag TAGS`: a one-shot push notification.
struct PushSendCommand: Command {
    static let configuration = CommandConfiguration(
        name: "send",
        abstract: "Push a notification to users' devices, by login, id or tag.",
        discussion: """
            TEXT goes at once to every device the users subscribed for push notifications, \
            iOS and Android alike, or with --channel only through one service: apns, \
            apns_voip, gcm, or email (mail). --to names users as elsewhere: @login, a login, an \
            email address, a user id, or a full name one user has. --tag picks the users with \
            any of the tags, --all-tags those with every one, --exclude-tag leaves out those \
            with any; --to and the tags add up. The devices are those of the development \
            environment unless --production. A push that reaches no device is refused by the \
            server and not sent (exit 1).

            Says which event it made; --json prints the QuickBlox event object. In a pipe, one \
            line, tab-separated: the event's fields as 'chatctl push events' prints them.
            """,
        examples: [
            Example("Tell bob and carol on every device of theirs", "chatctl push send 'Build 142 is ready' --to @bob,@carol"),
            Example("Everyone tagged vip but not churned, on their production devices",
                    "chatctl push send 'Sale today' --tag vip --exclude-tag churned --production"),
            Example("An Android push with a key the app reads, to user 42, as JSON",
                    "chatctl push send 'New order' --to 42 --channel gcm --data order=1234 --json"),
        ])

    @Arguments("TEXT", help: "The notification's text; words are joined with spaces.", isOptional: false)
    var text: [String]
    @Option("to", metavar: "USERS", help: "Who: @login, login, email, id or full name, comma-separated; give it again for more.",
            repeatable: true)
    var to: String?
    @Option("tag", metavar: "TAGS", help: "The users with any of these tags (comma-separated).", repeatable: true)
    var tag: String?
    @Option("all-tags", metavar: "TAGS", help: "The users with every one of these tags.", repeatable: true)
    var allTags: String?
    @Option("exclude-tag", metavar: "TAGS", help: "Never the users with any of these tags.", repeatable: true)
    var excludeTag: String?
    @Option("channel", metavar: "CHANNEL", help: "Only through this service (default: every push service).")
    var channel: QBPushNotification.Channel?
    @Option("data", metavar: "KEY=VALUE", help: "A custom parameter the app gets with the push; give it again for more.",
            repeatable: true)
    var data: String?
    @Flag("production", help: "Push to the devices of the production environment (default: development).")
    var production: Bool
    @Option("name", metavar: "NAME", help: "A name for the event, which 'chatctl push events' shows.")
    var name: String?
    @Flag("json", help: "Print the QuickBlox event object.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let message = text.joined(separator: " ")
        guard !BlankMessage.isBlank(message) else {
            throw context.usage("the notification's text is empty; give TEXT")
        }
        let people = Self.list($to.values)
        var notification = QBPushNotification(text: message, channel: channel, production: production,
                                              tagsAny: Self.list($tag.values), tagsAll: Self.list($allTags.values),
                                              tagsExclude: Self.list($excludeTag.values), name: name)
        guard !people.isEmpty || !notification.tagsAny.isEmpty || !notification.tagsAll.isEmpty || !notification.tagsExclude.isEmpty else {
            throw context.usage("say who gets it: --to USERS, --tag TAGS, --all-tags TAGS or --exclude-tag TAGS")
        }
        for pair in $data.values {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw context.usage("--data takes KEY=VALUE, not '\(TerminalText.sanitize(pair, newlines: .asSpaces))'")
            }
            let key = String(pair[..<equals])
            guard key != "message", !notification.data.contains(where: { $0.key == key }) else {
                throw context.usage("--data \(key) is given twice (or is 'message', which is TEXT)")
            }
            notification.data.append((key: key, value: String(pair[pair.index(after: equals)...])))
        }
        if channel == .email && !notification.data.isEmpty { throw context.usage("--data is for push services; mail takes TEXT only") }
        let service = try context.messagingService(source: .server)
        notification.userIDs = try people.map { word throws(Failure) in try service.user(named: word).id }
        let event = try service.sendPush(notification)
        if json {
            context.io.writeOut(JSONOutput.line(.object(event.raw)))
        } else if context.listingLayout == .tabSeparated {
            context.io.writeOut(PushEventsCommand.row(event, layout: .tabSeparated).joined(separator: "\t") + "\n")
        } else {
            context.io.writeOut("Pushed event \(event.id) (\(PushEventsCommand.channelName(event)), \(event.environment ?? "?")).\n")
        }
        return .ok
    }

    /// `a,b` words given once or more, split on commas, blanks dropped, each once.
    static func list(_ values: [String]) -> [String] {
        var items: [String] = []
        for value in values {
            for item in value.split(separator: ",").map({ $0.trimmingBlanks() }) where !item.isEmpty && !items.contains(item) {
                items.append(item)
            }
        }
        return items
    }
}
