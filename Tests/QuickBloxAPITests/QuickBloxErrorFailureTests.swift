import Diagnostics
import Testing
import QuickBloxAPI

/// A REST failure as a person reads it: the server's reason, the request, a hint, the exit class.
@Suite struct QuickBloxErrorFailureTests {
    @Test(arguments: [(401, Failure.Kind.authentication), (404, .failure), (429, .temporary), (503, .temporary)])
    func restStatusDecidesTheKind(status: Int, kind: Failure.Kind) {
        let error = QuickBloxError(kind: .http(status: status), request: "GET https://api.example.com/users.json", reasons: ["nope"])
        let described = Failure(describing: error, doing: "find user")
        #expect(described.kind == kind)
        #expect(described.message == "find user: nope (\(status) from GET https://api.example.com/users.json)")
    }

    /// Only when no password was at hand: the hint names every way to give one.
    @Test func aGoneSessionSaysItExpiredAndHowToRenewIt() {
        let error = QuickBloxError(kind: .http(status: 401), request: "GET https://api.example.com/chat/Dialog.json",
                                   reasons: ["Required session does not exist"])
        let described = Failure(describing: error, doing: "list dialogs")
        #expect(described.kind == .authentication)
        #expect(described.message == "list dialogs: the session has expired (Required session does not exist, 401 from GET https://api.example.com/chat/Dialog.json)")
        for way in ["CHATCTL_PASSWORD", "--password-file", "terminal", "chatctl login"] {
            #expect(described.hint?.contains(way) == true, "hint lacks \(way)")
        }
    }

    /// A refusal that can never succeed (403, 404, 422…) is permanent, so a message
    /// refused so is not kept in the outbox; 401, 408, 429 and 5xx may pass, so they are not.
    @Test(arguments: [(400, true), (403, true), (404, true), (413, true), (422, true),
                      (401, false), (408, false), (429, false), (500, false), (503, false)])
    func onlyARefusalThatCannotSucceedIsPermanent(status: Int, permanent: Bool) {
        let error = QuickBloxError(kind: .http(status: status), request: "POST https://api.example.com/chat/Message.json",
                                   reasons: ["You don't have appropriate permissions to perform this operation"])
        let described = Failure(describing: error, doing: "send")
        #expect(described.isPermanent == permanent)
        if status == 408 { #expect(described.kind == .temporary) }
    }

    @Test func aNetworkFailureIsNotPermanent() {
        let error = QuickBloxError(kind: .transport(.cannotConnect), request: "POST https://api.example.com/chat/Message.json", reasons: [])
        #expect(!Failure(describing: error, doing: "send").isPermanent)
    }
}
