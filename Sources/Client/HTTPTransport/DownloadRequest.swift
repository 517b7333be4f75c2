/// A streamed GET; see `HTTPFileTransferring.download`.
package struct DownloadRequest: Sendable {
    package var url: String
    package var headers: [HTTPHeader]
    /// Bytes the sink already holds: asked for the rest with `Range` (0: all of it).
    package var resumeFrom: Int64
    /// How many of those bytes to ask for again and compare with the sink's (read
    /// back from its descriptor): when they differ, the sink holds another file and
    /// the download starts over.
    package var verifiedOverlap: Int
    /// Give up when no byte moved for this many seconds.
    package var stallTimeout: Double

    package init(url: String, headers: [HTTPHeader] = [], resumeFrom: Int64 = 0, verifiedOverlap: Int = 0, stallTimeout: Double = 30) {
        self.url = url; self.headers = headers; self.resumeFrom = resumeFrom
        self.verifiedOverlap = verifiedOverlap; self.stallTimeout = stallTimeout
    }
}

/// Where a download's bytes go: an open descriptor, positioned where they belong
/// (at `resumeFrom`), readable too when a resume checks an overlap. It stays the
/// caller's to close.
package struct DownloadSink: Sendable {
    package var fileDescriptor: Int32
    /// How errors name it (a path, or "standard output").
    package var description: String
    package init(fileDescriptor: Int32, description: String) {
        self.fileDescriptor = fileDescriptor; self.description = description
    }
}

/// What a download ended with.
package struct DownloadResult: Sendable {
    /// The answer; its body is empty when the bytes went to the sink.
    package var response: HTTPResponse
    /// True when the file is complete in the sink (200, 206, or 416 for a file
    /// that was already whole).
    package var saved: Bool
    /// Bytes in the sink at the end, counting those it held before.
    package var fileSize: Int64

    package init(response: HTTPResponse, saved: Bool, fileSize: Int64) {
        self.response = response; self.saved = saved; self.fileSize = fileSize
    }
}
