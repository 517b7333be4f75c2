import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI

/// `chatctl forward MESSAGE_ID DIALOG…`: a message forwarded as the QuickBlox apps forward
/// one, so that their users see it as a forward; over REST, through the outbox.
struct ForwardCommand: Command {
    static let configuration = CommandConfiguration(
        name: "forward",
        abstract: "Forward a message to one or more dialogs.",
        discussion: """
            The message is found in the cache (any message 'history' or 'listen' has \
            shown), else read from the dialog --from names. Each copy carries the \
            original as the QuickBlox apps encode a forward (qb_message_action \
            'forward', origin_sender_name, qb_original_messages), with --comment as \
            its text or, without it, '[Forwarded_Message]' as the apps send it. The \
            dialogs are sent to in order, each through the outbox; one refused for \
            good (not an occupant) stops the rest.
            """,
        examples: [
            Example("Forward a message (its id from history --ids) to ops", "chatctl forward 65a1f0c2e4b0a1b2c3d4e5f6 ops"),
            Example("To two dialogs, with a word of your own", "chatctl forward 65a1f0c2e4b0a1b2c3d4e5f6 ops @carol --comment 'see this'"),
            Example("A message not in the cache: name its dialog", "chatctl forward 65a1f0c2e4b0a1b2c3d4e5f6 ops --from @bob"),
        ])

    @Argument("MESSAGE_ID", help: SharedHelp.messageID)
    var messageID: MessageID
    @Arguments("DIALOG", help: "Where to forward it: " + SharedHelp.dialog, isOptional: false)
    var dialogs: [DialogReference]
    @Option("comment", metavar: "TEXT", help: "Words of your own sent with it.")
    var comment: String?
    @Option("from", metavar: "DIALOG", help: SharedHelp.messageDialog)
    var from: DialogReference?
    @Flag("print-id", help: SharedHelp.printID)
    var printID: Bool
    @Flag("json", help: SharedHelp.json)
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        if let comment, BlankMessage.isBlank(comment) { throw context.usage("--comment is blank: leave it out to forward without words") }
        if let comment, MessageSplitter.split(comment).count > 1 {
            throw context.usage("--comment is over \(MessageSplitter.defaultLimit) bytes; a forward is one message")
        }
        if json && printID { throw context.usage("--print-id and --json both print the messages sent; give one of them") }
        let service = try context.messagingService(source: .server)
        let source = try from.map { try service.resolve($0, source: .server, createPrivate: false) }
        let custom = try service.quoting(messageID.text, as: .forward, lookingIn: source)
        let targets = try dialogs.map { try service.resolve($0, source: .server, createPrivate: true) }
        let (io, json, printID, me) = (context.io, json, printID, service.me)
        var queued: [Failure] = []
        for target in targets {
            var sender = RESTSender(service: service, dialogID: target.id) { message in
                if json { io.writeOut(JSONOutput.message(message, me: me) + "\n") }
                if printID { io.writeOut(message.id + "\n") }
            }
            try sender.send(comment ?? QBQuotedMessages.forwardedText, custom: custom)
            if let failure = sender.finish() { queued.append(failure) }
        }
        guard let first = queued.first else { return .ok }
        throw Failure.undelivered(queued.count, delivered: targets.count - queued.count, reason: first.message)
    }
}
