#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where one `XMPPConnection.connect` gets its credentials: at hand from the start, or asked
/// for (once) when a head start's stream is secured; and whether an attempt has used them.
struct CredentialRequest {
    /// The XMPP domain a head start connects to before it knows the JID; nil: no head start.
    let domain: String?
    let cancellation: ChatConnectCancellation?
    private let ask: () -> ChatCredentials?
    private let endpoint: String
    private(set) var credentials: ChatCredentials?
    /// An attempt went on with them (set them on its stream): a failure from then on is the connect's.
    var used = false

    init(domain: String?, endpoint: String, cancellation: ChatConnectCancellation?, ask: @escaping () -> ChatCredentials?) {
        self.domain = domain; self.endpoint = endpoint; self.cancellation = cancellation; self.ask = ask
    }

    var obtained: Bool { credentials != nil }
    var cancelled: Bool { cancellation?.isCancelled == true }

    /// Asks, unless it has; the time the answer takes moves `deadline` (it is not the server's).
    /// Nil from the asker, or a cancellation meanwhile, ends the connect.
    mutating func obtain(deadline: inout ContinuousClock.Instant) throws(XMPPError) {
        guard credentials == nil else { return }
        let asked = ContinuousClock.now
        let answer = ask()
        deadline = deadline + (ContinuousClock.now - asked)
        guard let answer, !cancelled else { throw ChatConnectCancellation.error(endpoint: endpoint) }
        credentials = answer
    }
}
