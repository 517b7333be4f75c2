import SandboxJSON

/// A file of a File field: a blob's file in the blob store (its uid is the `file_id`).
package struct StoredFile: Equatable {
    package var uid: String
    package var name: String
    package var contentType: String
    package var size: Int

    package init(uid: String, name: String, contentType: String, size: Int) {
        self.uid = uid
        self.name = name
        self.contentType = contentType
        self.size = size
    }

    /// The field's value, and the upload's answer: `file_id`, `size`, `name`, `content_type`.
    package var json: JSONNode {
        .object([("file_id", .string(uid)), ("size", .int(size)), ("name", .string(name)), ("content_type", .string(contentType))])
    }
}
