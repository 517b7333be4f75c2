import Testing
@testable import ChatctlCLI

/// `chatctl profile set`'s refusals come before any request or question: said first, exit 2.
@Suite struct ProfileCommandTests {
    @Test(arguments: [
        (["profile", "set"], "nothing to change"),
        (["profile", "set", "--avatar", "a.png", "--no-avatar"], "--avatar and --no-avatar cannot be used together"),
        (["profile", "set", "--password-stdin"], "--password-stdin goes with --password"),
        (["profile", "set", "--custom-data", "{team"], "--custom-data is not JSON"),
        (["profile", "set", "--full-name", "a  b"], "is not a valid display name"),
    ])
    func aRefusalIsOneLineAndExit2(arguments: [String], says: String) {
        let (status, io) = runChatctl(arguments)
        #expect(status == 2, "\(io.err)")
        #expect(io.err.contains(says), "\(io.err)")
        #expect(io.err.split(separator: "\n").first?.contains(says) == true, "said first: \(io.err)")
        #expect(io.out.isEmpty)
    }

    @Test func twoLinesGiveTheCurrentAndTheNewPassword() {
        #expect(ProfileSetCommand.twoLines(Array("old-pass-1\r\nnew-pass-2\n".utf8)) == ("old-pass-1", "new-pass-2"))
        let (old, new) = ProfileSetCommand.twoLines(Array("only-one\n".utf8))
        #expect(old == "only-one" && (new ?? "").isEmpty)
    }
}
