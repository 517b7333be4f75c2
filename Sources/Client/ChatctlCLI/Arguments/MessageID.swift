import CommandLineKit

/// A message id on the command line: 24 hex digits, as QuickBlox gives them.
struct MessageID: ExpressibleByArgument, Equatable, CustomStringConvertible {
    let text: String

    init?(argument: String) {
        guard Self.isMessageID(argument) else { return nil }
        text = argument
    }

    static var expectedValue: String? { "a message's 24-hex id (history --ids shows it)" }

    var description: String { text }

    static func isMessageID(_ text: String) -> Bool {
        text.utf8.count == 24 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }
    }
}
