// S3's answer to a browser upload with `success_action_status` 201 (docs/protocol.md §8).
import SandboxXML

/// `<PostResponse><Location/><Bucket/><Key/><ETag/></PostResponse>`, as S3 writes it.
struct PostResponse: Equatable {
    /// The bucket the sandbox's storage calls itself (it has one).
    static let bucket = "sandbox"

    var location: String
    var bucket: String
    var key: String
    /// Quoted, as S3 quotes it: `"…"`.
    var etag: String

    var xml: String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<PostResponse><Location>\(XMLEscaping.text(location))</Location>"
            + "<Bucket>\(XMLEscaping.text(bucket))</Bucket><Key>\(XMLEscaping.text(key))</Key>"
            + "<ETag>\(XMLEscaping.text(etag))</ETag></PostResponse>"
    }
}
