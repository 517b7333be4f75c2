/// Help text shared by the options several commands declare.
enum SharedHelp {
    static let json = "Print JSON instead of text."
    static let offline = "Answer from the local cache only; no network."
    static let limit = "At most N items."
    static let dialog = "A dialog id, @login or an email address (the private dialog with that user), or any name 'chatctl dialogs' shows."
}
