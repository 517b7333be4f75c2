/// Streamed transfers of files: a multipart upload read from a file descriptor,
/// a download written to one. Neither holds the file in memory.
package protocol HTTPFileTransferring: AnyObject {
    /// POSTs `multipart/form-data`: the fields in order, then the file part.
    /// Any status is returned (the body kept up to 64 KiB); `HTTPError` only when
    /// there is no answer, or the file could not be read.
    func upload(_ request: MultipartUploadRequest, progress: (TransferProgress) -> Void) throws(HTTPError) -> HTTPResponse

    /// GETs `request.url` into `sink` when the answer is 200 or 206 (resuming at
    /// `request.resumeFrom`); any other answer comes back with its body in memory
    /// (up to 64 KiB), nothing written. Redirects are returned, not followed.
    func download(_ request: DownloadRequest, into sink: DownloadSink,
                  progress: (TransferProgress) -> Void) throws(HTTPError) -> DownloadResult
}

/// How far a transfer got: bytes of the file so far (a resumed download counts
/// what was there before) and, when known, how many in all.
package struct TransferProgress: Sendable, Equatable {
    package var bytes: Int64
    package var total: Int64?
    package init(bytes: Int64, total: Int64?) { self.bytes = bytes; self.total = total }
}
