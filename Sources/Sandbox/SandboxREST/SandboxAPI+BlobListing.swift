// The reference's other content calls (docs/protocol.md §8): a user's blobs listed, and a blob
// renamed, retyped or made ready for a new upload.
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// `GET /blobs.json?page=&per_page=`: a page of the session user's blobs, newest first,
    /// `{"current_page","per_page","total_entries","items":[{"blob":{…}}]}` as users are paged.
    func listBlobs(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let (page, perPage) = userPaging(context.request)
        let me = context.session.userId
        let (total, items) = try storage { try blobs.blobs(ownerId: me, page: page, perPage: perPage) }
        return .json(200, .object([
            ("current_page", .int(page)),
            ("per_page", .int(perPage)),
            ("total_entries", .int(total)),
            ("items", .array(items.map { .object([("blob", $0.json)]) })),
        ]))
    }

    /// `PUT /blobs/{id}.json` with `blob[name]`, `blob[content_type]` and `blob[new]=1` (a new
    /// upload replaces the file: the blob is incomplete again and the answer carries a new
    /// `blob_object_access`). The owner only (403; 404 unknown); 422 as creating answers it.
    func updateBlob(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let blob = try ownedBlob(context)
        let name = r.parameter("blob[name]")
        let contentType = r.parameter("blob[content_type]")
        var problems = Self.blobFieldProblems(contentType: contentType, name: name)
        var restart = false
        if let text = r.parameter("blob[new]"), !text.isEmpty {
            switch text.lowercased() {
            case "1", "true": restart = true
            case "0", "false": restart = false
            default: problems.append(("new", .array([.string("must be 0 or 1")])))
            }
        }
        guard problems.isEmpty else { throw RESTError(status: 422, errors: .object(problems)) }
        let endpoint = try storageEndpoint()
        guard let updated = try storage({ try blobs.update(id: blob.id, name: name, contentType: contentType, restart: restart) })
        else { throw .notFound }
        if restart {
            // The old file goes: nothing is downloaded until the new one is complete.
            endpoint.remove(blob.uid)
            return .json(200, .object([("blob", try withUploadAccess(updated, endpoint))]))
        }
        return .json(200, .object([("blob", updated.json)]))
    }
}
