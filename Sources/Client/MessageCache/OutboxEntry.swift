import ChatIdentifiers

/// A message written to the outbox before it was sent, not yet acknowledged.
package struct OutboxEntry: Hashable, Sendable {
    package var rowID: Int64
    /// The id chatctl gave the message (24 hex); it becomes the XMPP stanza id.
    package var clientMessageID: String
    package var dialogID: DialogID
    package var text: String
    /// Unix seconds when it was enqueued.
    package var createdAt: Int
    /// Failed send attempts so far.
    package var attempts: Int
    /// The last failure's description, if any.
    package var lastError: String?
    /// The process id holding the claim, if claimed.
    package var claimedBy: Int?
    package var claimedAt: Int?
    /// The attachment objects to send with it, as a JSON array; `""` when none
    /// (or, with `uploads`, until every file is completed).
    package var attachmentsJSON: String = ""
    /// Files still to be uploaded for it, or uploaded (`send --attach`), in order.
    package var uploads: [OutboxUpload] = []
    /// Custom parameters to send with it (a reply's or a forward's, docs/protocol.md §6),
    /// a JSON object of strings; `""` when none.
    package var customJSON: String = ""
}
