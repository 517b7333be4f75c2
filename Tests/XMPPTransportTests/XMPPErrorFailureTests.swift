import Diagnostics
import Testing
import XMPPTransport

/// A chat failure as a person reads it: what the server did, the endpoint, the setting to check, the exit class.
@Suite struct XMPPErrorFailureTests {
    @Test func chatFailuresNameTheEndpointAndTheSettingToCheck() {
        let tls = Failure(describing: XMPPError(kind: .tlsFailed, endpoint: "xmpps://c:5223", detail: "self-signed certificate"))
        #expect(tls.kind == .failure)
        #expect(tls.message == "chat connect: TLS to xmpps://c:5223 failed: self-signed certificate")
        #expect(tls.hint?.contains("caFile") == true)

        let refused = Failure(describing: XMPPError(kind: .cannotConnect, endpoint: "xmpp://c:5222", detail: ""))
        #expect(refused.kind == .temporary)
        #expect(refused.hint?.contains("endpoints.chat") == true)

        #expect(Failure(describing: XMPPError(kind: .notAuthorized, endpoint: "x", detail: "")).kind == .authentication)
    }
}
