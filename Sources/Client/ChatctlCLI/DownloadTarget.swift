import CommandLineKit

/// What `download` saves (MESSAGE_ID|UID): 24 hex digits are a message's id, or
/// failing that a file's uid; other text safe in a path and a URL is a file's uid.
struct DownloadTarget: ExpressibleByArgument, CustomStringConvertible {
    let text: String

    init?(argument: String) {
        guard MessageID.isMessageID(argument) || Self.isUID(argument) else { return nil }
        text = argument
    }

    static var expectedValue: String? { "a message id (24 hex digits) or a file uid (letters, digits, '-' and '_')" }

    var description: String { text }

    /// Whether it may name a message (else it is a file's uid only).
    var mayBeMessage: Bool { MessageID.isMessageID(text) }

    /// What a blob uid may hold: safe in a path and a URL.
    static func isUID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 200 && text.utf8.allSatisfy {
            (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }
}
