import ChatIdentifiers
import Diagnostics
import XMPPTransport

/// Before a private message goes over REST (which privacy lists do not govern), a brief chat
/// connection asks both sides' lists (docs/protocol.md §7, "Privacy lists"): the user's own list
/// (do they block the other person?), then a chat state (`active`, stored nowhere) to the other
/// person, which their list bounces with `service-unavailable` when they block the user. The
/// server's ack of it ends the wait: the sandbox, as ejabberd, bounces before it acknowledges.
package enum BlockProbe {
    package enum Outcome: Sendable, Equatable {
        case clear
        /// The user blocks the other person.
        case youBlock
        /// The other person blocks the user.
        case theyBlock
    }

    /// Connects `link`, asks, disconnects; each wait at most `timeout` seconds.
    package static func run(over link: any ChatLinking, peer: Int, dialogID: DialogID, timeout: Double) throws(Failure) -> Outcome {
        var bounced = false
        let hearing: (ChatEvent) -> Void = { event in
            if case .messageError(let error) = event, error.from?.userID == peer, error.condition == "service-unavailable" { bounced = true }
        }
        return try BlockListExchange.run(over: link, timeout: timeout, hearing: hearing) { ask throws(Failure) in
            if try BlockListExchange.read(ask).blockedUserIDs.contains(peer) { return .youBlock }
            do throws(XMPPError) {
                try link.send(chatState: .active, to: link.userJID(peer), kind: .chat, dialogID: dialogID)
                try link.waitForAcknowledgement(timeout: timeout)
            } catch {
                throw Failure(describing: error)
            }
            link.pump(timeout: 0, sliceMilliseconds: 0, until: nil)
            return bounced ? .theyBlock : .clear
        }
    }
}
