import HTTPTransport

/// The content API (docs/protocol.md §8): a file is a blob, created, uploaded to
/// where the server says, completed with its size; downloaded by its uid through a
/// redirect to the storage. Files are streamed, never held in memory.
extension QuickBloxClient {
    /// `POST /blobs.json` `{"blob":{"content_type","name","public"}}` → 201 with the
    /// blob and, in `blob_object_access.params`, where to upload it.
    package func createBlob(name: String, contentType: String, isPublic: Bool = false) throws(QuickBloxError) -> QBBlob {
        let body: JSONValue = ["blob": ["content_type": .string(contentType), "name": .string(name), "public": .bool(isPublic)]]
        // Repeatable: a blob created twice costs an empty record, never a wrong message.
        let json = try send(.post, "/blobs.json", repeatable: true) { body }
        guard let blob = QBBlob(json: json) else { throw invalidResponse("POST /blobs.json", "no blob with an id and a uid") }
        guard blob.upload != nil else {
            throw invalidResponse("POST /blobs.json", "no upload URL in blob_object_access.params")
        }
        return blob
    }

    /// POSTs the file to the blob's upload URL: every field of `params` in order,
    /// `file` last. The session token goes only to the API's own host, never to a
    /// storage host (S3). 200, 201, 202 and 204 are success; a refusal's reason
    /// comes from S3's XML error (`EntityTooLarge: …`) or QuickBlox's JSON.
    package func uploadBlobFile(_ blob: QBBlob, file: UploadFile, progress: (TransferProgress) -> Void) throws(QuickBloxError) {
        guard let ticket = blob.upload else {
            throw QuickBloxError(kind: .invalidResponse, request: "POST (upload of blob \(blob.id))", reasons: ["the blob has no upload URL"])
        }
        let requestLine = "POST \(ticket.url)"
        let files = try streaming(requestLine)
        var headers: [HTTPHeader] = [HTTPHeader("QB-SDK", "chatctl")]
        if let token, sendsToken(to: ticket.origin) { headers.append(HTTPHeader("QB-Token", token)) }
        let request = MultipartUploadRequest(url: ticket.url, headers: headers, fields: ticket.fields, file: file,
                                             stallTimeout: transferStallTimeout)
        let response: HTTPResponse
        do { response = try files.upload(request, progress: progress) } catch {
            throw QuickBloxError(kind: .transport(error.kind), request: requestLine, reasons: [error.detail])
        }
        guard [200, 201, 202, 204].contains(response.status) else {
            throw storageError(response, request: requestLine)
        }
    }

    /// `PUT /blobs/{id}/complete.json` `{"blob":{"size":N}}`: the upload is whole.
    /// (Some SDKs send a top-level `size`; servers take both.)
    package func completeBlob(id: Int, size: Int64) throws(QuickBloxError) {
        let body: JSONValue = ["blob": ["size": .int(Int(size))]]
        try send(.put, "/blobs/\(id)/complete.json") { body }
    }

    /// `DELETE /blobs/{id}.json`: the blob and its file go (the owner's only).
    package func deleteBlob(id: Int) throws(QuickBloxError) {
        try send(.delete, "/blobs/\(id).json")
    }

    /// `GET /blobs/{id}.json`: the blob's metadata.
    package func blob(id: Int) throws(QuickBloxError) -> QBBlob {
        let json = try send(.get, "/blobs/\(id).json")
        guard let blob = QBBlob(json: json) else { throw invalidResponse("GET /blobs/\(id).json", "no blob with an id and a uid") }
        return blob
    }

    /// `GET /blobs/{uid}.json` with the token: the 301 (or 302, 303, 307, 308) to
    /// where the file's bytes are, an absolute URL. 404: no such blob; 403: not
    /// the caller's to read.
    package func blobLocation(uid: String) throws(QuickBloxError) -> String {
        let path = "/blobs/\(PercentEncoding.encode(uid, keeping: .unreserved)).json"
        let response = try exchange(.get, path, redirects: true)
        guard (300..<400).contains(response.status), let location = response.header("Location"), !location.isEmpty else {
            throw invalidResponse("GET \(path)", "no redirect to the file (HTTP \(response.status))")
        }
        if location.hasPrefix("/") { return apiEndpoint + location }
        guard URLOrigin(location) != nil else { throw invalidResponse("GET \(path)", "a redirect to something that is not an http(s) URL") }
        return location
    }

    /// Streams the file at `location` (from `blobLocation`) into `sink`, resuming
    /// after `resumeFrom` bytes, of which the last `verifiedOverlap` are fetched
    /// again and compared (a sink holding another file starts over). The token goes
    /// only to the API's own host. Returns the file's size; a refusal (403 once the
    /// signed URL expired, 404) is an error with the storage's reason.
    package func downloadBlobFile(from location: String, into sink: DownloadSink, resumeFrom: Int64, verifiedOverlap: Int = 0,
                                 progress: (TransferProgress) -> Void) throws(QuickBloxError) -> Int64 {
        let requestLine = "GET \(SecretRedactor.urlWithoutQuery(location))"
        let files = try streaming(requestLine)
        var headers: [HTTPHeader] = []
        if let token, let origin = URLOrigin(location), sendsToken(to: origin) { headers.append(HTTPHeader("QB-Token", token)) }
        let request = DownloadRequest(url: location, headers: headers, resumeFrom: resumeFrom, verifiedOverlap: verifiedOverlap,
                                      stallTimeout: transferStallTimeout)
        let result: DownloadResult
        do { result = try files.download(request, into: sink, progress: progress) } catch {
            throw QuickBloxError(kind: .transport(error.kind), request: requestLine, reasons: [error.detail])
        }
        guard result.saved else { throw storageError(result.response, request: requestLine) }
        return result.fileSize
    }

    /// Whether a request to `origin` may carry `QB-Token`: only the API's own host.
    func sendsToken(to origin: URLOrigin) -> Bool {
        URLOrigin(apiEndpoint) == origin
    }

    private func streaming(_ requestLine: String) throws(QuickBloxError) -> any HTTPFileTransferring {
        guard let files = fileTransport else {
            throw QuickBloxError(kind: .transport(.other), request: requestLine, reasons: ["this transport cannot stream files"])
        }
        return files
    }

    private func storageError(_ response: HTTPResponse, request: String) -> QuickBloxError {
        let reasons = StorageErrorBody.reasons(response.body)
        return QuickBloxError(kind: .http(status: response.status), request: request,
                              reasons: reasons.isEmpty ? [QuickBloxError.fallbackReason(status: response.status)] : reasons)
    }
}
