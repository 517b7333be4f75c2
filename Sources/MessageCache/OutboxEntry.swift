/// A message written to the outbox before it was sent, not yet acknowledged.
public struct OutboxEntry: Hashable, Sendable {
    public var rowID: Int64
    /// The id chatctl gave the message (24 hex); it becomes the XMPP stanza id.
    public var clientMessageID: String
    public var dialogID: String
    public var text: String
    /// Unix seconds when it was enqueued.
    public var createdAt: Int
    /// Failed send attempts so far.
    public var attempts: Int
    /// The last failure's description, if any.
    public var lastError: String?
    /// The process id holding the claim, if claimed.
    public var claimedBy: Int?
    public var claimedAt: Int?
    /// The attachment objects to send with it, as a JSON array; `""` when none
    /// (or, with `uploads`, until every file is completed).
    public var attachmentsJSON: String = ""
    /// Files still to be uploaded for it, or uploaded (`send --attach`), in order.
    public var uploads: [OutboxUpload] = []
}
