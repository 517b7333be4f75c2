import Foundation
import Testing
@testable import ChatctlCLI

/// `login --token-stdin`, `--token-file`, `CHATCTL_TOKEN`: what is refused before any request
/// (the environment points at no config, so getting past these checks fails differently).
@Suite struct TokenLoginCommandTests {
    static let token = "3f65c6b89d501006f767c48cbe40449fea97fcb5"

    @Test(arguments: [
        (["login", "--token-stdin", "--token-file", "t"], "chatctl: --token-stdin and --token-file cannot be used together"),
        (["login", "--token-stdin", "--login", "alice"], "chatctl: --token-stdin cannot be used with --login: the token says whose session it is"),
        (["login", "--token-file", "t", "--password-stdin"], "chatctl: --token-file cannot be used with --password-stdin: the token says whose session it is"),
        (["login", "--token-stdin", "--full-name", "Alice"], "chatctl: --token-stdin cannot be used with --full-name: the token says whose session it is"),
        (["login", "--token-stdin", "--password-file", "p"], "chatctl: --token-stdin cannot be used with --password-file: the token says whose session it is"),
    ])
    func aTokenLoginTakesNoPasswordLoginsOptions(arguments: [String], firstLine: String) {
        expectUsageError(arguments, firstLine: firstLine)
    }

    /// As with --password, the value after --token is never read, nor quoted back.
    @Test func aTokenIsNeverTakenFromTheCommandLine() {
        for arguments in [["login", "--token", Self.token], ["login", "--token=" + Self.token]] {
            let (status, io) = runChatctl(arguments)
            #expect(status == 2)
            #expect(io.err.hasPrefix("chatctl: login takes no session token on the command line"))
            #expect(!io.err.contains(Self.token))
        }
    }

    @Test(arguments: [("", "chatctl: standard input holds no session token"), ("  \n", "chatctl: standard input holds no session token"),
                      ("not a token at all\n", "chatctl: standard input does not hold a session token"),
                      ("0123456789abcdef0123456789abcdef01234567 extra\n", "chatctl: standard input does not hold a session token")])
    func aMalformedTokenOnStandardInputIsBadInput(input: String, start: String) {
        let (status, io) = runChatctl(["login", "--token-stdin"], io: CapturedIO(input: input))
        #expect(status == 2)
        #expect(io.out.isEmpty)
        #expect(io.err.hasPrefix(start + " ("), "\(io.err)")
        #expect(io.err.split(separator: "\n").count == 1)
        let quoted = input.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(quoted.isEmpty || !io.err.contains(quoted))
    }

    @Test func aTokenFileThatCannotBeReadIsBadInput() {
        let (status, io) = runChatctl(["login", "--token-file", "/nonexistent/token"])
        #expect(status == 2)
        #expect(io.err == "chatctl: cannot read token file /nonexistent/token (check the path given to --token-file)\n")
    }

    @Test func theEnvironmentsTokenIsCheckedToo() {
        let (status, io) = runChatctl(["login"], environment: ["CHATCTL_TOKEN": "not-a-token"])
        #expect(status == 2)
        #expect(io.err.hasPrefix("chatctl: CHATCTL_TOKEN does not hold a session token ("))
        #expect(!io.err.contains("not-a-token"))
    }

    @Test func theEnvironmentsTokenTakesNoSignUpOptions() {
        let (status, io) = runChatctl(["login", "--yes"], environment: ["CHATCTL_TOKEN": Self.token])
        #expect(status == 2)
        #expect(io.err.hasPrefix("chatctl: CHATCTL_TOKEN cannot be used with --yes: the token says whose session it is\n"))
    }

    /// A password login asked for on the command line wins over CHATCTL_TOKEN, which it says it leaves unused.
    @Test func aPasswordLoginOnTheCommandLineLeavesTheEnvironmentsTokenAlone() {
        let (status, io) = runChatctl(["login", "--login", "alice"], environment: ["CHATCTL_TOKEN": Self.token])
        #expect(status == 2)
        #expect(io.err.hasPrefix("chatctl: warning: CHATCTL_TOKEN is not used: --login asks for a password login\n"))
        #expect(io.err.contains("no password given"))
        #expect(!io.err.contains(Self.token))
    }
}
