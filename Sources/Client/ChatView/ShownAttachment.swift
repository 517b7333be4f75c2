/// A file attached to a message, with its transfer while one is under way.
package struct ShownAttachment: Hashable, Sendable {
    /// `image`, `video`, `audio`, `file`, or what the sender chose.
    package var kind: String
    package var name: String
    package var size: Int?
    /// The blob uid, to download it.
    package var uid: String?
    /// The file on this machine (sent from here, or downloaded), for a preview.
    package var localPath: String?
    package var transfer: Transfer?

    package init(kind: String, name: String, size: Int? = nil, uid: String? = nil, localPath: String? = nil, transfer: Transfer? = nil) {
        self.kind = kind; self.name = name; self.size = size; self.uid = uid; self.localPath = localPath; self.transfer = transfer
    }

    package var isImage: Bool { kind == "image" }
}
