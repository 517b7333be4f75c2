import Diagnostics
import Testing
@testable import AuthFlow

/// A token handed to `login --token-stdin` is checked for a token's shape before any request,
/// and no error quotes it.
@Suite struct SessionTokenTests {
    static let sandboxToken = "3f65c6b89d501006f767c48cbe40449fea97fcb5"

    static let long = String(repeating: "a", count: 1024)

    @Test(arguments: [(sandboxToken, sandboxToken), (sandboxToken + "\n", sandboxToken), (sandboxToken + "\r\n", sandboxToken),
                      ("  " + sandboxToken + " \t\n", sandboxToken), (sandboxToken + "\nsecond line", sandboxToken),
                      ("AbCd-._~+/0123456789==", "AbCd-._~+/0123456789=="), (long, long)])
    func aTokensShapeIsTaken(text: String, expected: String) throws {
        #expect(try SessionToken(reading: text, from: "standard input").value == expected)
    }

    @Test(arguments: ["", "\n", "   \n", " \t \r\n", "\nafter an empty first line"])
    func nothingIsNoToken(text: String) {
        let error = #expect(throws: Failure.self) { try SessionToken(reading: text, from: "standard input") }
        #expect(error?.kind == .invalidInput)
        #expect(error?.message == "standard input holds no session token")
    }

    @Test(arguments: ["short123", "two words in one line of text", "tab\tinside-a-long-token-0123", "quote\"d-0123456789abcdef",
                      "ünïcode-0123456789abcdef", "control\u{1B}[2J-0123456789", "=leading-padding-0123456789",
                      "====================", "a=b-equals-inside-0123456", String(repeating: "a", count: 1025)])
    func aMalformedTokenIsNamedButNeverQuoted(text: String) {
        let error = #expect(throws: Failure.self) { try SessionToken(reading: text, from: "token file /t") }
        #expect(error?.kind == .invalidInput)
        #expect(error?.message == "token file /t does not hold a session token")
        #expect(error?.hint == SessionToken.hint)
        #expect(error.map { !$0.description.contains(text) } == true)
    }

    @Test func itsDescriptionNeverShowsIt() throws {
        let token = try SessionToken(reading: Self.sandboxToken, from: "CHATCTL_TOKEN")
        #expect("\(token)" == "<session token>")
        #expect(String(reflecting: token) == "<session token>")
    }
}
