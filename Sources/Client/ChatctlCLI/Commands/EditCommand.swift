import CommandLineKit
import Diagnostics
import MessageCache
import Messaging
import ChatIdentifiers

/// `chatctl edit MESSAGE_ID TEXT…`: replace the text of one of your messages.
struct EditCommand: Command {
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Replace the text of one of your messages.",
        discussion: "The message's dialog comes from the cache (any message 'history' or 'listen' has shown); give --dialog for others. Only a message's sender may edit it.",
        examples: [
            Example("Replace the text of one of your messages", "chatctl edit 6560a3f1c2b4e90012ab34cd 'meet at 10, not 11'"),
            Example("A message the cache has not seen: name its dialog", "chatctl edit 6560a3f1c2b4e90012ab34cd --dialog ops 'fixed'"),
        ])

    @Argument("MESSAGE_ID", help: SharedHelp.messageID)
    var messageID: MessageID
    @Arguments("TEXT", help: "The new text; words are joined with spaces.", isOptional: false)
    var words: [String]
    @Option("dialog", metavar: "DIALOG", help: SharedHelp.messageDialog)
    var dialog: DialogReference?
    @Flag("json", help: "Print the edited message as JSON.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let text = words.joined(separator: " ")
        guard !text.allSatisfy(\.isWhitespace) else { throw context.usage("TEXT is empty: nothing to put in its place") }
        let service = try context.messagingService(source: .server)
        let dialogID: DialogID
        if let dialog {
            dialogID = try service.resolve(dialog, source: .server, createPrivate: false).id
        } else if let cached = try service.cachedMessage(id: messageID.text) {
            dialogID = cached.dialogID
        } else {
            throw Failure(.invalidInput, "message \(messageID) is not in the cache, so its dialog is unknown",
                                                        hint: "give it with --dialog DIALOG")
        }
        let edited = try service.editMessage(id: messageID.text, dialogID: dialogID, text: text)
        context.tellChange("edited message \(messageID)", json: json ? edited.rawJSON : nil)
        return .ok
    }
}
