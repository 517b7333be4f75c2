#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file of the content API (docs/protocol.md §8): `id` names it in the blob
/// calls, `uid` in downloads and in the attachments of messages.
package struct QBBlob: Sendable, Equatable {
    package var id: Int
    package var uid: String
    package var name: String?
    package var contentType: String?
    /// Bytes; nil until the upload is completed.
    package var size: Int64?
    package var isPublic: Bool
    /// `blob_status`: nil, then "complete".
    package var status: String?
    /// Where and how to upload the file: `blob_object_access` of a new blob.
    package var upload: QBBlobUploadTicket?
    /// The blob object as received.
    package var raw: [String: JSONValue]

    package init(id: Int, uid: String, name: String? = nil, contentType: String? = nil, size: Int64? = nil,
                isPublic: Bool = false, status: String? = nil, upload: QBBlobUploadTicket? = nil, raw: [String: JSONValue] = [:]) {
        self.id = id; self.uid = uid; self.name = name; self.contentType = contentType; self.size = size
        self.isPublic = isPublic; self.status = status; self.upload = upload; self.raw = raw
    }

    /// From a blob object, bare or as `{"blob":{…}}`; nil without an `id` and a `uid`.
    package init?(json: JSONValue) {
        let blob = json.unwrapping("blob")
        guard let members = blob.objectValue, let id = blob["id"]?.looseInt,
              let uid = blob["uid"]?.looseString, !uid.isEmpty else { return nil }
        let access = blob["blob_object_access"]
        let upload = access?["params"]?.stringValue.flatMap {
            QBBlobUploadTicket(params: $0, expires: access?["expires"]?.looseDate)
        }
        let isPublic: Bool = switch blob["public"] {
        case .bool(let flag)?: flag
        case .string(let text)?: text.trimmingScalars(" ").lowercased() == "true" || text.trimmingScalars(" ") == "1"
        case let value?: value.looseInt == 1
        case nil: false
        }
        self.init(id: id, uid: uid, name: blob["name"]?.looseString, contentType: blob["content_type"]?.looseString,
                  size: blob["size"]?.looseInt.map(Int64.init), isPublic: isPublic,
                  status: blob["blob_status"]?.looseString, upload: upload, raw: members)
    }
}
