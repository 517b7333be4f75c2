import CommandLineKit
import Diagnostics
import Messaging
import Presentation

/// `chatctl delete MESSAGE_ID [--everyone]`: a message out of your history, or everyone's.
struct DeleteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "delete",
        abstract: "Delete a message, for you or for everyone.",
        discussion: "Without --everyone the message goes from your history only; with it, from every occupant's, which only its sender may do. Either way it leaves the cache, so 'search' no longer finds it.",
        examples: [
            Example("Delete a message from your history", "chatctl delete 6560a3f1c2b4e90012ab34cd"),
            Example("Delete your message for everyone", "chatctl delete 6560a3f1c2b4e90012ab34cd --everyone"),
        ])

    @Argument("MESSAGE_ID", help: SharedHelp.messageID)
    var messageID: MessageID
    @Flag("everyone", help: "Delete it for every occupant (its sender only).")
    var everyone: Bool
    @Flag("json", help: "Print the server's answer as JSON.")
    var json: Bool

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = try context.messagingService(source: .server)
        let result = try service.deleteMessage(id: messageID.text, everyone: everyone)
        context.tellChange("deleted message \(messageID) for \(everyone ? "everyone" : "you")", json: json ? JSONOutput.line(result.json) : nil)
        return .ok
    }
}
