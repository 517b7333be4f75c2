import Diagnostics

/// A QuickBlox session token handed to `chatctl login` (`--token-stdin`, `--token-file`,
/// `CHATCTL_TOKEN`), checked for a token's shape before any request. Its description never
/// shows it: a token is a password for as long as it lives.
package struct SessionToken: Sendable, Equatable, CustomStringConvertible {
    package let value: String

    /// What a token may be made of: 16 to 1024 of RFC 7235's token68 characters (letters,
    /// digits, `-._~+/=`), so it travels in `QB-Token` as it is. The service's are 40 hex digits.
    package static let lengths = 16...1024
    package static let hint = "a session token is 16 to 1024 letters, digits or - . _ ~ + / =, "
        + "with no spaces; QuickBlox's are 40 hex digits"

    /// The first line of `text` (a trailing newline is not part of a token), without the
    /// spaces around it; `source` names where it came from in the errors ("standard input").
    /// Empty or malformed: invalid input (exit 2), the text never quoted.
    package init(reading text: String, from source: String) throws(Failure) {
        // Bytes, not Characters: "\r\n" is one Character, and no newline of it may stay.
        let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]
        let line = text.utf8.prefix { $0 != UInt8(ascii: "\n") }
        let token = String(decoding: line.drop(while: blank.contains).reversed().drop(while: blank.contains).reversed(), as: UTF8.self)
        guard !token.isEmpty else {
            throw Failure(.invalidInput, "\(source) holds no session token",
                          hint: "give the token of a QuickBlox session, e.g. printf '%s\\n' \"$QB_TOKEN\" | chatctl login --token-stdin")
        }
        guard Self.isWellFormed(token) else {
            throw Failure(.invalidInput, "\(source) does not hold a session token", hint: Self.hint)
        }
        value = token
    }

    package static func isWellFormed(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        guard lengths.contains(bytes.count) else { return false }
        let marks = Set("-._~+/".utf8)
        // token68: the `=` only as padding at the end.
        let body = bytes.reversed().drop { $0 == UInt8(ascii: "=") }
        guard !body.isEmpty else { return false }
        return body.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || marks.contains(byte)
        }
    }

    package var description: String { "<session token>" }
}
