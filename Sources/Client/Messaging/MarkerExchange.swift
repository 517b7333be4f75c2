import Diagnostics
import MessageCache
import XMPPTransport

/// The chat markers (XEP-0333, docs/protocol.md §7) of one chat connection, both
/// ways. Ours: `received` or `displayed` for messages from others that asked for
/// markers, queued as messages are handled and written together by `flush` (one
/// write, one ack request). Theirs: `received` and `displayed` for our own
/// messages, checked and recorded in the cache, also by `flush` (one transaction).
/// Confined to the thread of its link, like the link.
package final class MarkerExchange {
    package let link: any ChatLinking
    package let cache: ChatCache
    private var outgoing: [ChatMarker] = []
    private var receipts: [MessageReceipt] = []
    private var lastSender: (id: Int, jid: ChatJID)?
    /// Markers waiting for a connection; beyond this the oldest go (they only
    /// tell a sender early what REST records anyway).
    static let outgoingLimit = 10_000
    /// Markers written since the last `waitUntilSent`.
    package private(set) var unconfirmed = 0

    package init(link: any ChatLinking, cache: ChatCache) {
        self.link = link; self.cache = cache
    }

    // MARK: ours

    /// Queues `kind` for `message`, if it came from someone else and asked for
    /// markers. Goes to the sender's user JID, whatever the dialog's type.
    package func queue(_ kind: ChatMarker.Kind, for message: CachedMessage) {
        guard message.senderID != link.me, message.senderID > 0, message.isMarkable else { return }
        // A stream mostly comes from one sender: its JID is made once, not a message.
        let sender: ChatJID
        if let last = lastSender, last.id == message.senderID { sender = last.jid } else {
            sender = link.userJID(message.senderID)
            lastSender = (message.senderID, sender)
        }
        outgoing.append(ChatMarker(kind: kind, messageID: message.id, peer: sender, dialogID: message.dialogID))
        if outgoing.count > Self.outgoingLimit { outgoing.removeFirst(outgoing.count - Self.outgoingLimit) }
    }

    // MARK: theirs

    /// Takes a marker someone sent us: recorded at the next `flush` when it is
    /// about a message of ours, from an occupant of its dialog (`receipt(for:…)`).
    /// Returns whether it was taken.
    @discardableResult
    package func take(_ marker: ChatMarker) -> Bool {
        let message = try? cache.message(id: marker.messageID)
        let dialog = message.flatMap { try? cache.dialog(id: $0.dialogID) }
        guard let receipt = Self.receipt(for: marker, me: link.me, message: message, dialog: dialog) else { return false }
        receipts.append(receipt)
        return true
    }

    /// What an incoming marker says, or nil when it is to be ignored: the
    /// message is not cached or not ours (a marker for a message we never sent),
    /// the marker is our own, names another dialog, or comes from someone who is
    /// not an occupant (anyone may be in a public group). Pure.
    package static func receipt(for marker: ChatMarker, me: Int, message: CachedMessage?, dialog: CachedDialog?) -> MessageReceipt? {
        // From a user JID; a marker sent into a room names its sender as the nickname.
        let from = marker.peer.userID ?? (marker.peer.roomDialogID != nil ? marker.peer.resource.flatMap { Int($0) } : nil)
        guard let from, from > 0, from != me, let message, message.senderID == me,
              marker.dialogID == nil || marker.dialogID == message.dialogID,
              let dialog, dialog.id == message.dialogID,
              dialog.type == .publicGroup || dialog.occupantIDs.contains(from) else { return nil }
        return MessageReceipt(messageID: message.id, userID: from, kind: marker.kind == .displayed ? .read : .delivered)
    }

    // MARK: both

    /// Records the markers taken and writes ours. Ours stay queued while the connection
    /// is down (the next flush after a reconnect sends them). Returns our messages whose
    /// delivered or read ids changed, and the first failure, if any; nothing is lost to
    /// it but this turn.
    @discardableResult
    package func flush() -> (changed: [CachedMessage], failure: Failure?) {
        var failure: Failure?
        var changed: [CachedMessage] = []
        if !receipts.isEmpty {
            let batch = receipts
            receipts.removeAll()
            do { changed = try cache.recordReceipts(batch) } catch {
                failure = Failure(cache: error)
            }
        }
        if !outgoing.isEmpty && link.isConnected {
            do {
                try link.send(markers: outgoing)
                unconfirmed += outgoing.count
                outgoing.removeAll()
            } catch {
                if failure == nil { failure = Failure(describing: error) }
            }
        }
        return (changed, failure)
    }

    /// Waits (at most `timeout` seconds) until the server acknowledged every
    /// marker written, so that they are not lost when the connection closes next.
    package func waitUntilSent(timeout: Double = 5) throws(Failure) {
        guard unconfirmed > 0 else { return }
        do { try link.waitForAcknowledgement(timeout: timeout) } catch {
            throw Failure(describing: error)
        }
        unconfirmed = 0
    }
}

@available(*, unavailable)
extension MarkerExchange: Sendable {}
