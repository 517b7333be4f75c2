/// A `multipart/form-data` POST whose last part is a file read from a descriptor
/// (docs/protocol.md §8: the policy fields in order, `file` last).
public struct MultipartUploadRequest: Sendable {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public var url: String
    public var headers: [HTTPHeader]
    public var fields: [Field]
    public var file: UploadFile
    /// The file part's field name.
    public var fileField: String
    /// Give up when no byte moved for this many seconds (no bound on the whole
    /// transfer: a big file on a slow line may take hours).
    public var stallTimeout: Double

    public init(url: String, headers: [HTTPHeader] = [], fields: [Field], file: UploadFile, fileField: String = "file",
                stallTimeout: Double = 30) {
        self.url = url; self.headers = headers; self.fields = fields; self.file = file
        self.fileField = fileField; self.stallTimeout = stallTimeout
    }
}

/// The file of an upload: `size` bytes read from the start of an open descriptor,
/// which stays the caller's to close.
public struct UploadFile: Sendable {
    public var fileDescriptor: Int32
    public var size: Int64
    /// The `filename` of the part.
    public var name: String
    /// The part's `Content-Type`.
    public var contentType: String
    /// How errors name the file (its path).
    public var description: String

    public init(fileDescriptor: Int32, size: Int64, name: String, contentType: String, description: String) {
        self.fileDescriptor = fileDescriptor; self.size = size; self.name = name
        self.contentType = contentType; self.description = description
    }
}
