// What the REST side hands out for the storage endpoint (docs/protocol.md §8): the URLs
// that uploads and downloads go to, signed for the endpoint to check.

/// The storage endpoint as clients reach it, and what signs their URLs. Immutable.
package struct StorageEndpoint: Sendable {
    /// `http://host:port` of the storage endpoint, as clients are told it.
    package var baseURL: String
    package var signer: StorageSigner
    /// `--max-upload`, the top of every policy's `content-length-range`.
    package var maximumUpload: Int
    /// Seconds an upload policy or a download URL stays valid.
    package var urlLifetime: Double

    package init(baseURL: String, signer: StorageSigner, maximumUpload: Int, urlLifetime: Double) {
        self.baseURL = baseURL
        self.signer = signer
        self.maximumUpload = maximumUpload
        self.urlLifetime = urlLifetime
    }

    /// The upload URL of blob `blobId`, whose file is `key`: the policy's fields as its query.
    package func uploadURL(blobId: Int, key: String, contentType: String, isPublic: Bool, now: Double) -> String {
        let fields = signer.uploadFields(key: key, contentType: contentType, isPublic: isPublic,
                                         maximumSize: maximumUpload, now: now, lifetime: urlLifetime)
        return "\(baseURL)/blobs/\(blobId)/upload/?"
            + StorageSigner.query(fields)
    }

    /// A signed download URL of `key`'s file, answered with `contentType`.
    package func downloadURL(key: String, contentType: String, now: Double) -> String {
        baseURL + signer.downloadTarget(key: key, contentType: contentType, now: now, lifetime: urlLifetime)
    }
}
