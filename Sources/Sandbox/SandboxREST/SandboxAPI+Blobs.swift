// The content API (docs/protocol.md §8): blobs are created, uploaded to the storage
// endpoint with the policy handed out here, completed, downloaded through a redirect
// to a signed storage URL, and deleted.
import SandboxClock
import SandboxJSON
import SandboxStorage

/// How the REST side reaches the storage endpoint, known once it listens: the composition
/// root makes it from the endpoint's signer and files (set once; a blob request calls it).
package struct StorageEndpointAccess {
    /// The upload URL of blob `blobId`, whose file is `key`: the endpoint's address with an
    /// upload policy's fields as its query.
    var uploadURL: (_ blobId: Int, _ key: String, _ contentType: String, _ isPublic: Bool, _ now: Double) -> String
    /// A signed URL of `key`'s file, to be answered with `contentType`.
    var downloadURL: (_ key: String, _ contentType: String, _ now: Double) -> String
    /// Whether `text` may name a blob's file (what blob uids look like).
    var isKey: (_ text: String) -> Bool
    /// The size of `key`'s complete file; nil when none was uploaded.
    var storedSize: (_ key: String) -> Int?
    /// Deletes `key`'s file (a download already under way finishes).
    var remove: (_ key: String) -> Void
    /// Keeps `bytes` as `key`'s complete file (a custom object's file field, which arrives
    /// through the REST API rather than by an upload to the endpoint).
    var store: (_ key: String, _ bytes: [UInt8]) -> StoredBytes
    /// `--max-upload`: the largest file kept.
    var maximumUpload: Int
    /// Seconds an upload policy or a download URL stays valid.
    var urlLifetime: Double

    package init(uploadURL: @escaping (Int, String, String, Bool, Double) -> String,
                 downloadURL: @escaping (String, String, Double) -> String,
                 isKey: @escaping (String) -> Bool, storedSize: @escaping (String) -> Int?,
                 remove: @escaping (String) -> Void, store: @escaping (String, [UInt8]) -> StoredBytes,
                 maximumUpload: Int, urlLifetime: Double) {
        self.uploadURL = uploadURL
        self.downloadURL = downloadURL
        self.isKey = isKey
        self.storedSize = storedSize
        self.remove = remove
        self.store = store
        self.maximumUpload = maximumUpload
        self.urlLifetime = urlLifetime
    }
}

/// What became of bytes given to `StorageEndpointAccess.store`.
package enum StoredBytes {
    case stored
    /// The disk is full (or the file-size limit reached): nothing kept.
    case noSpace
    /// Another failure, which the endpoint has logged: nothing kept.
    case failed
}

extension SandboxAPI {
    /// The storage endpoint; a 500 if the sandbox was built without one.
    func storageEndpoint() throws(RESTError) -> StorageEndpointAccess {
        guard let blobStorage else { throw .internalError }
        return blobStorage
    }

    /// `POST /blobs.json` (`blob[content_type]`, `blob[name]`, optional `blob[public]`; form or JSON):
    /// 201 with the blob and its `blob_object_access`, whose `params` is the upload URL with
    /// the policy's fields as its query.
    func createBlob(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let endpoint = try storageEndpoint()
        let contentType = r.parameter("blob[content_type]") ?? ""
        let name = r.parameter("blob[name]") ?? ""
        var problems = Self.blobFieldProblems(contentType: contentType, name: name)
        func problem(_ key: String, _ message: String) { problems.append((key, .array([.string(message)]))) }
        var isPublic = false
        if let text = r.parameter("blob[public]"), !text.isEmpty {
            switch text.lowercased() {
            case "true", "1": isPublic = true
            case "false", "0": isPublic = false
            default: problem("public", "is not a boolean")
            }
        }
        guard problems.isEmpty else { throw RESTError(status: 422, errors: .object(problems)) }
        let me = context.session.userId
        let blob = try storage { try blobs.create(ownerId: me, contentType: contentType, name: name, isPublic: isPublic) }
        return .json(201, .object([("blob", try withUploadAccess(blob, endpoint))]))
    }

    /// The blob object with its `blob_object_access`: a new upload policy, as `params`.
    func withUploadAccess(_ blob: BlobRecord, _ endpoint: StorageEndpointAccess) throws(RESTError) -> JSONNode {
        let t = now()
        let params = endpoint.uploadURL(blob.id, blob.uid, blob.contentType, blob.isPublic, t)
        let access = JSONNode.object([
            ("id", .int(blob.id)),
            ("blob_id", .int(blob.id)),
            ("expires", .string(SandboxTime.iso8601((t + endpoint.urlLifetime).rounded(.down)))),
            ("object_access_type", .string("Write")),
            ("params", .string(params)),
        ])
        guard case .object(var members) = blob.json else { throw .internalError }
        members.append(("blob_object_access", access))
        return .object(members)
    }

    /// What is wrong with a blob's content type and name (given ones: nil is not checked).
    static func blobFieldProblems(contentType: String?, name: String?) -> [(String, JSONNode)] {
        var problems: [(String, JSONNode)] = []
        func problem(_ key: String, _ message: String) { problems.append((key, .array([.string(message)]))) }
        if let contentType {
            if contentType.isEmpty {
                problem("content_type", "can't be blank")
            } else if contentType.utf8.count > 255 || !contentType.contains("/")
                        || !contentType.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                // It comes back as a Content-Type header: printable ASCII only.
                problem("content_type", "is invalid")
            }
        }
        if let name {
            if name.isEmpty {
                problem("name", "can't be blank")
            } else if name.utf8.count > 1024 || name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                problem("name", "is invalid")
            }
        }
        return problems
    }

    /// `PUT /blobs/{id}/complete.json` with `blob[size]` (or `size`): the owner declares the
    /// upload done; the size must be the stored file's. 200, empty.
    func completeBlob(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let endpoint = try storageEndpoint()
        let blob = try ownedBlob(context)
        guard let text = r.parameter("blob[size]") ?? r.parameter("size"), !text.isEmpty else {
            throw .field(422, "size", "can't be blank")
        }
        guard let size = Int(text), size >= 0 else { throw .field(422, "size", "is not a number") }
        guard let stored = endpoint.storedSize(blob.uid) else {
            throw .field(422, "size", "does not match the uploaded file: nothing has been uploaded")
        }
        guard stored == size else {
            throw .field(422, "size", "does not match the uploaded file (\(stored) bytes)")
        }
        try storage { try blobs.complete(id: blob.id, size: size) }
        return .empty(200)
    }

    /// `GET /blobs/{id}.json`: the blob's metadata. `GET /blobs/{uid}.json`: 301 to a signed
    /// storage URL of its file. A public blob to anyone, a private one only to a session of
    /// its owner or of a user who may read a dialog with a message that refers to it.
    func readBlob(_ context: TokenContext) throws(RESTError) -> RESTResponse {
        let ref = context.request.pathParameters["ref"] ?? ""
        if !ref.isEmpty, ref.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            guard let id = Int(ref), let blob = try storage({ try blobs.blob(id: id) }) else { throw .notFound }
            try checkReadable(blob, context)
            return .json(200, .object([("blob", blob.json)]))
        }
        let endpoint = try storageEndpoint()
        guard endpoint.isKey(ref), let blob = try storage({ try blobs.blob(uid: ref) }) else { throw .notFound }
        try checkReadable(blob, context)
        // Not completed (or its file gone): nothing to download yet.
        guard blob.isComplete, endpoint.storedSize(blob.uid) != nil else { throw .notFound }
        return RESTResponse(status: 301, body: nil, headers: [("Location", endpoint.downloadURL(blob.uid, blob.contentType, now()))])
    }

    /// `DELETE /blobs/{id}.json`: the owner deletes the blob and its file. 200, empty.
    func deleteBlob(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let endpoint = try storageEndpoint()
        let blob = try ownedBlob(context)
        try storage { try blobs.delete(id: blob.id) }
        endpoint.remove(blob.uid)
        return .empty(200)
    }

    /// The blob `{id}` names, which must be the session user's (404 unknown, 403 someone else's).
    func ownedBlob(_ context: UserContext) throws(RESTError) -> BlobRecord {
        guard let id = context.request.pathParameters["id"].flatMap({ Int($0) }),
              let blob = try storage({ try blobs.blob(id: id) }) else { throw .notFound }
        guard blob.ownerId == context.session.userId else { throw .forbidden }
        return blob
    }

    private func checkReadable(_ blob: BlobRecord, _ context: TokenContext) throws(RESTError) {
        if blob.isPublic { return }
        guard let session = context.session else { throw .tokenRequired }
        if session.userId != 0 && session.userId == blob.ownerId { return }
        if session.userId != 0, try storage({ try blobs.isShared(uid: blob.uid, with: session.userId) }) { return }
        throw .forbidden
    }
}
