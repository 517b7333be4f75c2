import CommandLineKit
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl push events [ID]`: the push events you created, or how one went.
struct PushEventsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "events",
        abstract: "List the push events you sent, or show how one went.",
        discussion: """
            Without ID, your events, newest first, a page at a time: TYPE is one_shot (sent at \
            once), fixed_date or period_date; CHANNEL the service (all: every push service); \
            ACTIVE whether it will occur again by itself; SENT how many times it occurred. When \
            there are more pages, a line on stderr says how to get the next. With ID, that \
            event with its STATUS (scheduled, sent, no_recipients or inactive) and the number \
            of devices it reached (DELIVERIES), as the server tells it.

            In a pipe, a line an event, tab-separated, no header: id, type, channel, environment, \
            active (yes or empty), times sent, created (ISO 8601 UTC), name; with ID also status \
            and deliveries.
            """,
        examples: [
            Example("Your push events, newest first", "chatctl push events"),
            Example("How event 12 went, as JSON", "chatctl push events 12 --json"),
            Example("The second page of 50", "chatctl push events --page 2 -n 50"),
        ])

    @OptionalArgument("ID", help: "An event's id, as the list shows it.")
    var id: Int?
    @Option("page", metavar: "N", help: "Which page.", range: 1...1_000_000)
    var page = 1
    @Option("limit", short: "n", metavar: "N", help: "Events per page, 1 to 100.", range: 1...100)
    var perPage = 20
    @Flag("json", help: "Print QuickBlox event objects (with ID, one, with its status).")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        if let id {
            if !$page.values.isEmpty || !$perPage.values.isEmpty { throw context.usage("--page and --limit list events; with ID there is one") }
            let event = try context.messagingService(source: .server).pushEvent(id: id)
            if json {
                context.io.writeOut(JSONOutput.line(.object(event.raw)))
            } else if context.listingLayout == .tabSeparated {
                let fields = Self.row(event, layout: .tabSeparated) + [event.status ?? "", event.deliveriesCount.map(String.init) ?? ""]
                context.io.writeOut(fields.joined(separator: "\t") + "\n")
            } else {
                context.io.writeOut(Self.details(event, layout: context.listingLayout))
            }
            return .ok
        }
        let found = try context.messagingService(source: .server).pushEvents(page: page, perPage: perPage)
        if json {
            context.io.writeOut(JSONOutput.array(ofRaw: found.items.map { JSONOutput.text(.object($0.raw)) }))
        } else if !found.items.isEmpty {
            var listing = Listing(["ID", "TYPE", "CHANNEL", "ENVIRONMENT", "ACTIVE", "SENT", "CREATED", "NAME"])
            for event in found.items { listing.append(Self.row(event, layout: context.listingLayout)) }
            context.io.writeOut(listing.render(context.listingLayout))
        }
        if found.items.isEmpty {
            context.io.writeErr("chatctl: no push events\(page > 1 ? " on page \(page)" : "")\n")
        } else if found.hasMore {
            let pages = (found.totalEntries + perPage - 1) / perPage
            context.io.writeErr("chatctl: page \(page) of \(pages) (\(found.totalEntries) events); the next: --page \(page + 1)\n")
        }
        return .ok
    }

    /// The list's fields of one event, text from the server made safe for a terminal.
    static func row(_ event: QBPushEvent, layout: Listing.Layout) -> [String] {
        [String(event.id), event.eventType ?? "", channelName(event), event.environment ?? "", event.active == true ? "yes" : "",
         event.occurredCount.map(String.init) ?? "", layout.time(event.createdAt.map { Int($0.timeIntervalSince1970) }), event.name ?? ""]
            .map { TerminalText.sanitize($0, newlines: .asSpaces) }
    }

    /// The event's service, `all` for a universal push.
    static func channelName(_ event: QBPushEvent) -> String { event.channel ?? "all" }

    /// One event as labelled lines, for a person.
    static func details(_ event: QBPushEvent, layout: Listing.Layout) -> String {
        let fields: [(String, String)] = zip(["ID", "Type", "Channel", "Environment", "Active", "Sent", "Created", "Name"],
                                             row(event, layout: layout)).map { ($0, $1) }
            + [("Status", event.status ?? ""), ("Deliveries", event.deliveriesCount.map(String.init) ?? "")]
        var text = ""
        for (label, value) in fields where !value.isEmpty {
            text += label + ":" + String(repeating: " ", count: max(1, 13 - label.count)) + value + "\n"
        }
        return text
    }
}
