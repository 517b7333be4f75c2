import Diagnostics
import MessageCache
import XMPPTransport
import ChatIdentifiers

/// Read state both ways (docs/protocol.md §6–7): what a person saw goes to its senders as
/// `displayed` markers (queued while chat is down, written once it is up) and to the server
/// as read over REST, tried again until it goes; typing states out.
extension ChatEngine {
    /// A person saw these messages (the chat view's screen).
    func markDisplayed(_ ids: [String], dialogID: DialogID) {
        let messages = ids.compactMap { try? service.cache.message(id: $0) }
        feed(.displayed(messages, dialogID: dialogID))
        settleReadMarks()
    }

    /// Tells the senders of `messages` (marked read over REST already) with `displayed`
    /// markers, and waits until the server has them (`read`, `history --mark-read`).
    package func tellDisplayed(_ messages: [CachedMessage]) throws(Failure) {
        for message in messages { markers.queue(.displayed, for: message) }
        if let failure = markers.flush().failure { throw failure }
        try markers.waitUntilSent()
        settle()
    }

    /// Marks read over REST what waits, when connected and due; a failure is told once per
    /// run of failures and tried again later.
    func settleReadMarks() {
        feed(.readMarksDue(at: .now))
    }

    /// A chat state to a dialog's other occupants; nothing without a connection.
    func sendTyping(_ state: ChatState, dialogID: DialogID) {
        guard connected, let dialog = try? dialog(dialogID), let (to, kind) = try? link.address(of: dialog) else { return }
        try? link.send(chatState: state, to: to, kind: kind, dialogID: dialog.id)
    }
}
