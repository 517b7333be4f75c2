// What the storage endpoint answers when it refuses: S3's XML error body (docs/protocol.md §8).

import SandboxXML

/// A refusal of the storage endpoint: an HTTP status and S3's `<Error>` body.
struct StorageError: Error, Equatable {
    var status: Int
    /// S3's error code (`AccessDenied`, `EntityTooLarge`, …).
    var code: String
    var message: String

    /// `<?xml …?><Error><Code>AccessDenied</Code><Message>…</Message></Error>`
    var xml: String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>\(XMLEscaping.text(code))</Code>"
            + "<Message>\(XMLEscaping.text(message))</Message></Error>"
    }

    static func accessDenied(_ message: String) -> StorageError { StorageError(status: 403, code: "AccessDenied", message: message) }
    static func invalidArgument(_ message: String) -> StorageError { StorageError(status: 400, code: "InvalidArgument", message: message) }
    static func policyConditionFailed(_ condition: String) -> StorageError {
        .accessDenied("Invalid according to Policy: Policy Condition failed: \(condition)")
    }
    static let policyExpired = StorageError.accessDenied("Invalid according to Policy: Policy expired.")
    static let requestExpired = StorageError.accessDenied("Request has expired")
    static let signatureMismatch = StorageError(
        status: 403, code: "SignatureDoesNotMatch",
        message: "The request signature we calculated does not match the signature you provided.")
    static let unknownAccessKey = StorageError(
        status: 403, code: "InvalidAccessKeyId", message: "The AWS Access Key Id you provided does not exist in our records.")
    static let malformedPolicy = StorageError(
        status: 400, code: "InvalidPolicyDocument", message: "Invalid Policy: the policy is not base64-encoded JSON with an expiration and conditions.")
    static let malformedForm = StorageError(
        status: 400, code: "MalformedPOSTRequest", message: "The body of your POST request is not well-formed multipart/form-data.")
    static let noFile = StorageError.invalidArgument("POST requires exactly one file upload per request.")
    static let fieldsTooLarge = StorageError(
        status: 400, code: "MaxPostPreDataLengthExceededError",
        message: "Your POST request fields preceding the upload file were too large.")
    static let noSuchKey = StorageError(status: 404, code: "NoSuchKey", message: "The specified key does not exist.")
    static let notFound = StorageError(status: 404, code: "NotFound", message: "Not Found")
    /// S3's answer to a preflight its CORS rules do not allow.
    static let corsForbidden = StorageError(status: 403, code: "AccessForbidden", message: "CORSResponse: This CORS request is not allowed.")
    static let methodNotAllowed = StorageError(
        status: 405, code: "MethodNotAllowed", message: "The specified method is not allowed against this resource.")

    /// 413: the file, or the whole request, is over the limit (the policy's range or `--max-upload`).
    static func entityTooLarge(maximum: Int) -> StorageError {
        StorageError(status: 413, code: "EntityTooLarge", message: "Your proposed upload exceeds the maximum allowed size (\(maximum) bytes).")
    }
    static func entityTooSmall(minimum: Int) -> StorageError {
        StorageError(status: 400, code: "EntityTooSmall", message: "Your proposed upload is smaller than the minimum allowed size (\(minimum) bytes).")
    }
    static func invalidRange(size: Int) -> StorageError {
        StorageError(status: 416, code: "InvalidRange", message: "The requested range is not satisfiable (the object has \(size) bytes).")
    }
    static func internalError(_ message: String) -> StorageError { StorageError(status: 500, code: "InternalError", message: message) }
    /// The disk is full: nothing of the upload is kept (S3 has no such answer; WebDAV's 507 says it).
    static let insufficientStorage = StorageError(
        status: 507, code: "InsufficientStorage", message: "The server's disk is full; nothing was stored. Try again later.")
}
