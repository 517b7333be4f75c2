import Testing
import ClientConfiguration
import QuickBloxAPI
import XMPPTransport

@Suite struct FailureDescriptionTests {
    @Test func chatFailuresNameTheEndpointAndTheSettingToCheck() {
        let tls = FailureDescription(describing: XMPPError(kind: .tlsFailed, endpoint: "xmpps://c:5223", detail: "self-signed certificate"))
        #expect(tls.kind == .failure)
        #expect(tls.message == "chat connect: TLS to xmpps://c:5223 failed: self-signed certificate")
        #expect(tls.hint?.contains("caFile") == true)

        let refused = FailureDescription(describing: XMPPError(kind: .cannotConnect, endpoint: "xmpp://c:5222", detail: ""))
        #expect(refused.kind == .temporary)
        #expect(refused.hint?.contains("endpoints.chat") == true)

        #expect(FailureDescription(describing: XMPPError(kind: .notAuthorized, endpoint: "x", detail: "")).kind == .authentication)
    }

    @Test(arguments: [(401, FailureDescription.Kind.authentication), (404, .failure), (429, .temporary), (503, .temporary)])
    func restStatusDecidesTheKind(status: Int, kind: FailureDescription.Kind) {
        let error = QuickBloxError(kind: .http(status: status), request: "GET https://api.example.com/users.json", reasons: ["nope"])
        let described = FailureDescription(describing: error, doing: "find user")
        #expect(described.kind == kind)
        #expect(described.message == "find user: nope (\(status) from GET https://api.example.com/users.json)")
    }
}
