import Diagnostics
import MessageCache
import XMPPTransport
import ChatIdentifiers

/// Other users' presence (docs/protocol.md §7, "Presence and last activity"): each change
/// heard is told (`.presence`); the chat view's followed private dialog has its peer's last
/// activity asked when nothing was heard of them, and after a reconnect everyone thought
/// online is asked again, since they may have left while we were away.
extension ChatEngine {
    func heard(_ presence: UserPresence) {
        guard presence.userID != link.me, let change = presenceBook.record(presence) else { return }
        emit(.presence(userID: presence.userID, change))
    }

    func heard(_ answer: LastActivity) {
        guard answer.userID != link.me, let change = presenceBook.record(answer) else { return }
        emit(.presence(userID: answer.userID, change))
    }

    /// The followed dialog's peer, when private and not known to be online: their last activity.
    func askPresence(following dialogID: DialogID) {
        guard connected || link.isConnected, let dialog = try? dialog(dialogID), dialog.type == .private,
              let peer = dialog.occupantIDs.first(where: { $0 != link.me }), !presenceBook.isOnline(peer) else { return }
        askLastActivity(of: [peer])
    }

    /// After a reconnect: whoever was online may have gone meanwhile.
    func refreshPresence() {
        let stale = presenceBook.onlineUsers
        presenceBook.refreshing.formUnion(stale)
        askLastActivity(of: stale)
    }

    private func askLastActivity(of users: [Int]) {
        for user in users {
            do { try link.requestLastActivity(of: user) } catch { return }
        }
    }
}
