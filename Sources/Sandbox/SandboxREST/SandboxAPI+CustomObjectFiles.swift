// File fields of custom objects (docs/protocol.md §13): uploaded through the REST API as
// multipart form data, kept in the blob store's files, downloaded by a redirect to a signed
// storage URL as a blob is, and deleted.
import SandboxJSON
import SandboxStorage

extension SandboxAPI {
    /// The class, record and `field_name` a file request names.
    private func fileTarget<Session>(_ context: RESTContext<Session>) throws(RESTError) -> (className: String, id: String, field: String) {
        let className = context.request.pathParameters["class"] ?? ""
        guard CustomClass.isValidName(className) else { throw .field(422, "class_name", "is not a name a class may have: \(className)") }
        let id = (context.request.pathParameters["id"] ?? "").lowercased()
        guard ObjectIdGenerator.isValid(id) else { throw .notFound }
        guard let field = context.request.parameter("field_name"), !field.isEmpty else { throw .field(422, "field_name", "can't be blank") }
        return (className, id, field)
    }

    /// `POST /data/{class}/{id}/file.json` (multipart: `field_name`, `file`): the file becomes
    /// the content of the record's File field (made when the class has none by that name), the
    /// one it held before deleted; the caller needs the record's update permission. 200 with
    /// the file's `file_id`, `size`, `name` and `content_type` (and the record's `_id`).
    func uploadRecordFile(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let r = context.request
        let endpoint = try storageEndpoint()
        let target = try fileTarget(context)
        guard let upload = r.files.first(where: { $0.field == "file" }) ?? r.files.first else {
            throw .field(422, "file", "can't be blank: send the file as multipart form data")
        }
        guard upload.bytes.count <= endpoint.maximumUpload else {
            throw .list(413, "Request entity too large: a file may have \(endpoint.maximumUpload) bytes")
        }
        let name = upload.fileName.flatMap { $0.isEmpty ? nil : $0 } ?? r.parameter("name") ?? target.field
        let contentType = upload.contentType.flatMap { $0.isEmpty ? nil : $0 } ?? "application/octet-stream"
        let problems = Self.blobFieldProblems(contentType: contentType, name: name)
        guard problems.isEmpty else { throw RESTError(status: 422, errors: .object(problems)) }
        let caller = try recordCaller(context.session)
        // Nothing is written for a record the caller may not change, nor into a field of another type.
        _ = try recordStorage { try objects.record(target.id, in: target.className, for: .update, caller: caller) }
        var cls = try storage { try objects.customClass(target.className) } ?? CustomClass(name: target.className)
        _ = try recordStorage { try cls.fileField(target.field) }
        let file = StoredFile(uid: BlobStore.newUID(), name: name, contentType: contentType, size: upload.bytes.count)
        switch endpoint.store(file.uid, upload.bytes) {
        case .stored: break
        case .noSpace: throw .insufficientStorage
        case .failed: throw .internalError
        }
        let replaced: String?
        do throws(RESTError) {
            replaced = try recordStorage { try objects.attach(file, to: target.id, in: target.className, field: target.field, caller: caller) }
        } catch {
            endpoint.remove(file.uid)
            throw error
        }
        removeFiles(replaced.map { [$0] } ?? [])
        guard case .object(let members) = file.json else { throw .internalError }
        return .json(200, .object([("_id", .string(target.id))] + members))
    }

    /// `GET /data/{class}/{id}/file.json?field_name=…` (a session by header or `?token=`): 301
    /// to a signed storage URL of the file, for a caller who may read the record; 404 when the
    /// field holds no file.
    func downloadRecordFile(_ context: TokenContext) throws(RESTError) -> RESTResponse {
        guard let session = context.session else { throw .tokenRequired }
        let endpoint = try storageEndpoint()
        let target = try fileTarget(context)
        let caller = try recordCaller(session)
        let file = try recordStorage { try objects.file(target.field, of: target.id, in: target.className, caller: caller) }
        guard endpoint.storedSize(file.uid) != nil else { throw .notFound }
        return RESTResponse(status: 301, body: nil, headers: [("Location", endpoint.downloadURL(file.uid, file.contentType, now()))])
    }

    /// `DELETE /data/{class}/{id}/file.json?field_name=…`: the field emptied and its file
    /// deleted, for a caller who may update the record; 200, empty; 404 when it holds none.
    func deleteRecordFile(_ context: UserContext) throws(RESTError) -> RESTResponse {
        let target = try fileTarget(context)
        let caller = try recordCaller(context.session)
        let uid = try recordStorage { try objects.detach(target.field, from: target.id, in: target.className, caller: caller) }
        removeFiles([uid])
        return .empty(200)
    }
}
