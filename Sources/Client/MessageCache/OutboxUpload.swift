/// A file of an outbox entry on its way to the content API (docs/protocol.md §8):
/// where its bytes wait, what it is, and how far its upload got. The message is
/// sent once every file of its entry is `completed`, never before, so it never
/// points at a blob that is missing or incomplete. The transitions are pure
/// values; `ChatCache.recordUpload` keeps each one as it happens, so a process
/// killed at any point leaves what the next one (`outbox flush`) needs.
///
///     queued --create--> created --upload--> uploaded --complete--> completed
///        ^                 |  ^                  |
///        +--- new blob ----+  +-- upload again --+
package struct OutboxUpload: Hashable, Sendable {
    package enum State: String, Hashable, Sendable {
        /// No blob yet.
        case queued
        /// A blob exists, with a permission to upload to it until `uploadExpiresAt`.
        case created
        /// The storage took the whole file; the server has not been told yet.
        case uploaded
        /// The server completed the blob: the attachment is ready.
        case completed
    }

    /// What to do next.
    package enum Step: Hashable, Sendable {
        /// Create a blob: there is none, or its permission to upload ran out.
        case create
        /// Upload the file to the blob created.
        case upload
        /// Tell the server the file is whole.
        case complete
        case done
    }

    /// How the bytes are kept (`Transfers.KeptUpload.Method`).
    package enum Keeping: String, Hashable, Sendable {
        case clone, link, spool, original
    }

    /// Its place among the entry's attachments, from 0.
    package var position: Int
    /// How the user named it: the path as given, or "standard input".
    package var source: String
    /// The file to upload: the outbox's own copy, or (`original`) the user's file.
    package var file: String
    package var keeping: Keeping
    /// The attachment's name, type (`image`, `file`, …) and content type.
    package var name: String
    package var type: String
    package var contentType: String
    /// What the file was when queued: bytes, modification time (ns), inode and device.
    package var size: Int64
    package var modifiedAt: Int64
    package var inode: UInt64
    package var device: UInt64

    package private(set) var state: State
    package private(set) var blobID: Int?
    package private(set) var blobUID: String?
    /// The created blob's upload URL (`blob_object_access.params`) and when its permission ends (unix).
    package private(set) var uploadURL: String?
    package private(set) var uploadExpiresAt: Int?

    package init(position: Int, source: String, file: String, keeping: Keeping, name: String, type: String, contentType: String,
                size: Int64, modifiedAt: Int64, inode: UInt64, device: UInt64) {
        self.position = position; self.source = source; self.file = file; self.keeping = keeping
        self.name = name; self.type = type; self.contentType = contentType
        self.size = size; self.modifiedAt = modifiedAt; self.inode = inode; self.device = device
        state = .queued
    }

    /// As stored (`ChatCache`): a state with what it implies.
    init(stored upload: OutboxUpload, state: State, blobID: Int?, blobUID: String?, uploadURL: String?, uploadExpiresAt: Int?) {
        self = upload
        self.state = state; self.blobID = blobID; self.blobUID = blobUID
        self.uploadURL = uploadURL; self.uploadExpiresAt = uploadExpiresAt
    }

    /// Whether `file` is the outbox's own copy, removed with the entry.
    package var ownsFile: Bool { keeping != .original }

    /// The next step at unix time `now`. An upload to a blob goes on while its
    /// permission has at least `margin` seconds left (the storage checks it when the
    /// file begins); after that, or when its end is unknown, a new blob is made.
    package func nextStep(now: Int, margin: Int = 60) -> Step {
        switch state {
        case .queued: return .create
        case .created:
            guard let expires = uploadExpiresAt else { return .create }
            return expires - margin > now ? .upload : .create
        case .uploaded: return .complete
        case .completed: return .done
        }
    }

    /// A blob was made for it (a new one replaces any earlier one).
    package mutating func created(blobID: Int, uid: String, uploadURL: String, expiresAt: Int?) {
        state = .created
        self.blobID = blobID; blobUID = uid; self.uploadURL = uploadURL; uploadExpiresAt = expiresAt
    }

    /// The storage took the file.
    package mutating func uploaded() {
        precondition(state == .created, "an upload needs a created blob")
        state = .uploaded
    }

    /// The server completed the blob.
    package mutating func completed() {
        precondition(state == .uploaded || state == .completed, "only an uploaded file is completed")
        state = .completed
    }

    /// The storage refused the upload (its permission, or its host, is no longer
    /// good): the next attempt makes a new blob.
    package mutating func needsNewBlob() {
        guard state != .completed else { return }
        state = .queued
        blobID = nil; blobUID = nil; uploadURL = nil; uploadExpiresAt = nil
    }

    /// The server would not complete the blob (it has no file, or another size):
    /// the file goes up again, to the same blob while its permission lasts.
    package mutating func needsUploadAgain() {
        guard state == .uploaded else { return }
        state = .created
    }
}

extension OutboxEntry {
    /// Whether every file is completed: the message may be sent.
    package var isReadyToSend: Bool { uploads.allSatisfy { $0.state == .completed } }

    /// How many of its files are completed, of how many.
    package var uploadsCompleted: (done: Int, total: Int) {
        (uploads.count { $0.state == .completed }, uploads.count)
    }
}
