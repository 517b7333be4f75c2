import Diagnostics
import MessageCache
import XMPPTransport
import ChatIdentifiers

/// What the chat engine needs of a chat connection: `ChatLink` over libstrophe, or in
/// tests a scripted link that plays events back (as SwiftNIO tests a handler on an
/// `EmbeddedChannel`). Confined to one thread, like the connection it stands for: events
/// reach `onEvent` on that thread, only during the blocking calls below (`connect`,
/// `pump`, `waitForAcknowledgement`, `joinRooms`), never from inside a C callback.
package protocol ChatLinking: AnyObject {
    /// The user this link is for.
    var me: Int { get }
    var isConnected: Bool { get }
    /// Every event the connection reports; set by its owner.
    var onEvent: ((ChatEvent) -> Void)? { get set }
    /// Called after each batch of events handed to `onEvent`.
    var onEventsDelivered: (() -> Void)? { get set }
    /// How many stanzas the server has acknowledged in this session.
    var acknowledgedCount: UInt32 { get }

    /// Connects with the credentials as they are now (a renewal may have replaced the token).
    func connect() throws(Failure)
    func disconnect()
    /// Joins the rooms of the group dialogs among `dialogs` (needed to send to or hear from them).
    func joinRooms(of dialogs: [CachedDialog]) throws(Failure)
    /// Where a dialog's messages go: the other user's JID, or the group's room.
    func address(of dialog: CachedDialog) throws(Failure) -> (ChatJID, OutgoingChatMessage.Kind)
    /// The JID markers for user `id` go to.
    func userJID(_ id: Int) -> ChatJID
    func makeMessageID() -> ObjectID
    /// Queues messages in one write that asks for their ack (`.delivered` reports it).
    func send(contentsOf messages: [OutgoingChatMessage]) throws(XMPPError)
    func send(markers: [ChatMarker]) throws(XMPPError)
    func send(chatState: ChatState, to: ChatJID, kind: OutgoingChatMessage.Kind, dialogID: DialogID?) throws(XMPPError)
    /// Asks when user `id` was last online; the answer comes as `.lastActivity`.
    func requestLastActivity(of id: Int) throws(XMPPError)
    /// Asks for the whole contact list; the answer comes as `.roster(.roster)` under the id returned.
    func requestRoster() throws(XMPPError) -> String
    /// Adds `user` to the contact list (or with `remove`, takes them out); answered as `.roster(.done/.refused)`.
    func setRosterItem(_ user: Int, name: String?, remove: Bool) throws(XMPPError) -> String
    /// Asks to see `user`'s presence, grants, withdraws or refuses it (no answer of its own).
    func sendSubscription(_ kind: SubscriptionPresence.Kind, to user: Int) throws(XMPPError)
    /// A privacy list request (docs/protocol.md §7, "Privacy lists"); answered as `.privacy` under the id returned.
    func sendPrivacy(_ request: PrivacyQuery.Request) throws(XMPPError) -> String
    /// Tells a dialog that one of our messages changed (not stored, not tracked).
    func send(correction: ChatCorrection, to: ChatJID, kind: OutgoingChatMessage.Kind, dialogID: DialogID) throws(XMPPError)
    /// Runs the connection for about `timeout` seconds (at least one turn, so 0 flushes what
    /// is queued); with `until`, in slices of `sliceMilliseconds`, returning once it is true.
    func pump(timeout: Double, sliceMilliseconds: Int64, until: (() -> Bool)?)
    /// Blocks until the server has acknowledged everything sent (a ping without stream management).
    func waitForAcknowledgement(timeout: Double) throws(XMPPError)
}
