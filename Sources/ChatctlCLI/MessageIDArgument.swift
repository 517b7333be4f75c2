/// A message id on the command line: 24 hex digits, as QuickBlox gives them.
enum MessageIDArgument {
    static func check(_ text: String, context: CommandContext) throws {
        guard text.utf8.count == 24, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }) else {
            throw context.usage("MESSAGE_ID must be a message's 24-hex id (history --json shows it as _id), not '\(TerminalText.sanitize(text, keepNewlines: false))'")
        }
    }
}
