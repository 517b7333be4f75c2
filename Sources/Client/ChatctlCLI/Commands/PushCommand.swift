import CommandLineKit
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl push`: your devices subscribed to push notifications; `send` pushes one to users,
/// `events` shows the events that did.
struct PushCommand: Command {
    static let configuration = CommandConfiguration(
        name: "push",
        abstract: "List your devices that get push notifications.",
        discussion: """
            Lists the subscriptions of your account: each a device (its UDID and platform) \
            subscribed by an app to a push service (CHANNEL: apns, apns_voip, gcm, email). \
            'chatctl push send' pushes a notification to users by login, id or tag, for a \
            script that tests its app's push path; 'chatctl push events' lists the events you \
            sent, or shows how one went. Against chatctl-sandbox nothing leaves the machine: \
            the sandbox records each push it would have made.

            In a pipe, a line a subscription, tab-separated, no header: id, channel, platform, \
            device UDID, bundle identifier.
            """,
        subcommands: [PushSendCommand.self, PushEventsCommand.self],
        examples: [
            Example("The devices of yours that get push notifications", "chatctl push"),
            Example("The same, as QuickBlox subscription objects", "chatctl push --json"),
        ])

    @Flag("json", help: "Print an array of QuickBlox subscription objects.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let subscriptions = try context.messagingService(source: .server).pushSubscriptions()
        if json {
            context.io.writeOut(JSONOutput.array(ofRaw: subscriptions.map { JSONOutput.text(.object($0.raw)) }))
            return .ok
        }
        guard !subscriptions.isEmpty else {
            context.io.writeErr("chatctl: no device of yours is subscribed to push notifications\n")
            return .ok
        }
        var listing = Listing(["ID", "CHANNEL", "PLATFORM", "DEVICE", "BUNDLE"])
        for s in subscriptions {
            listing.append([String(s.id), s.channel ?? "", s.platform ?? "", s.udid ?? "", s.bundleIdentifier ?? ""]
                .map { TerminalText.sanitize($0, newlines: .asSpaces) })
        }
        context.io.writeOut(listing.render(context.listingLayout))
        return .ok
    }
}
