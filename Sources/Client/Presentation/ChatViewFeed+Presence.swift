import ChatView
import Messaging

extension ChatViewFeed {
    /// The engine's presence as the view's.
    static func presence(_ presence: PeerPresence) -> Presence {
        switch presence {
        case .online: return .online
        case .lastSeen(let at): return .lastSeen(at: at)
        case .offline: return .offline
        }
    }
}
