/// Help text shared by the options several commands declare.
enum SharedHelp {
    static let json = "Print JSON instead of text."
    static let offline = "Answer from the local cache only; no network."
    static let limit = "At most N items."
    static let messageID = "The message's 24-hex id (history --ids shows it)."
    static let messageDialog = "The message's dialog, when it is not in the cache."
    static let printID = "Print the id of each message the server stored, one a line."
    static let since = "Only messages sent after T."
    static let before = "Only messages sent before T."
    static let user = "A user: @login or a login, an email address, an id, or a full name one user has."
    static let dialog = "A dialog id, @login or an email address (the private dialog with that user), or any name 'chatctl dialogs' shows."
}
