/// A `multipart/form-data` POST whose last part is a file read from a descriptor
/// (docs/protocol.md §8: the policy fields in order, `file` last).
package struct MultipartUploadRequest: Sendable {
    package struct Field: Sendable, Equatable {
        package var name: String
        package var value: String
        package init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    package var url: String
    package var headers: [HTTPHeader]
    package var fields: [Field]
    package var file: UploadFile
    /// The file part's field name.
    package var fileField: String
    /// Give up when no byte moved for this many seconds (no bound on the whole
    /// transfer: a big file on a slow line may take hours).
    package var stallTimeout: Double

    package init(url: String, headers: [HTTPHeader] = [], fields: [Field], file: UploadFile, fileField: String = "file",
                stallTimeout: Double = 30) {
        self.url = url; self.headers = headers; self.fields = fields; self.file = file
        self.fileField = fileField; self.stallTimeout = stallTimeout
    }
}

/// The file of an upload: `size` bytes read from the start of an open descriptor,
/// which stays the caller's to close.
package struct UploadFile: Sendable {
    package var fileDescriptor: Int32
    package var size: Int64
    /// The `filename` of the part.
    package var name: String
    /// The part's `Content-Type`.
    package var contentType: String
    /// How errors name the file (its path).
    package var description: String

    package init(fileDescriptor: Int32, size: Int64, name: String, contentType: String, description: String) {
        self.fileDescriptor = fileDescriptor; self.size = size; self.name = name
        self.contentType = contentType; self.description = description
    }
}
