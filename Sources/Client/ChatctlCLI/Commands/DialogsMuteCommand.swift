#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CommandLineKit
import Messaging
import Presentation

/// `chatctl dialogs mute DIALOG`: no notifications of the dialog, on every device.
struct DialogsMuteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "mute",
        abstract: "Mute a dialog: no notifications of its messages.",
        discussion: """
            Turns the dialog's notifications off on the server (for you only, on every device), and \
            'chatctl dialogs' marks it muted. Its messages still arrive and count as unread; \
            'chatctl dialogs unmute' turns them on again. With --for, the mute ends after that long: \
            the server keeps no end, so chatctl does, and the first 'dialogs', 'listen' or 'chat' \
            after it unmutes the dialog.
            """,
        examples: [
            Example("No notifications of ops's messages", "chatctl dialogs mute ops"),
            Example("Quiet for the night: ops unmutes itself after 8 hours", "chatctl dialogs mute ops --for 8h"),
            Example("Mute the dialog with bob, and print it with \"muted\"", "chatctl dialogs mute @bob --json"),
        ])

    @Argument("DIALOG", help: SharedHelp.dialog)
    var dialog: DialogReference
    @Option("for", metavar: "DURATION", help: "Unmute after this long, its unit given: 45m, 8h, 7d, 2h30m.")
    var duration: MuteLength?
    @Flag("json", help: "Print the dialog as JSON, with \"muted\" and \"muted_until\".")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let until = duration.map { Int(Date().timeIntervalSince1970) + $0.seconds }
        return try Self.set(muted: true, dialog, until: until, json: json, context)
    }

    /// What mute and unmute share: the dialog named, its setting changed, what the server holds shown.
    static func set(muted: Bool, _ reference: DialogReference, until: Int? = nil, json: Bool, _ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(source: .server)
        let named = try service.resolve(reference, source: .server, createPrivate: false)
        let changed = try service.setMuted(muted, named, until: until)
        let end = changed.mutedUntil.map { " until " + MuteLabel.until($0) } ?? ""
        context.tellChange("\(changed.muted ? "muted" : "unmuted") \(DialogsShowCommand.label(changed, service))\(end)",
                           json: json ? JSONOutput.dialog(changed) : nil)
        return .ok
    }
}
