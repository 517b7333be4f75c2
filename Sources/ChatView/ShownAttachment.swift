/// A file attached to a message, with its transfer while one is under way.
public struct ShownAttachment: Hashable, Sendable {
    /// `image`, `video`, `audio`, `file`, or what the sender chose.
    public var kind: String
    public var name: String
    public var size: Int?
    /// The blob uid, to download it.
    public var uid: String?
    /// The file on this machine (sent from here, or downloaded), for a preview.
    public var localPath: String?
    public var transfer: Transfer?

    public init(kind: String, name: String, size: Int? = nil, uid: String? = nil, localPath: String? = nil, transfer: Transfer? = nil) {
        self.kind = kind; self.name = name; self.size = size; self.uid = uid; self.localPath = localPath; self.transfer = transfer
    }

    public var isImage: Bool { kind == "image" }
}
