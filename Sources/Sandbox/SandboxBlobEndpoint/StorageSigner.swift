// Upload policies and signed download URLs of the sandbox's storage endpoint
// (docs/protocol.md §8), in the shape of S3's browser POST and presigned GET with
// signature version 4, keyed with a secret only the sandbox knows.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SandboxClock
import SandboxCrypto
import SandboxJSON

/// What a verified upload policy allows.
struct UploadGrant: Equatable {
    /// The object key: the blob's uid, which names its file.
    var key: String
    /// `content-length-range`: the file's size in bytes must lie in it.
    var minimumSize: Int
    var maximumSize: Int
    /// `success_action_status` (200, 201 or 204; S3's default is 204).
    var successStatus: Int
}

/// What a verified download URL allows.
struct DownloadGrant: Equatable {
    var key: String
    /// `response-content-type`, the `Content-Type` to answer with.
    var contentType: String
}

/// Signs and checks the storage endpoint's credentials. Pure (the clock is an argument),
/// immutable and `Sendable`: the REST side signs on the event loop, the storage thread checks.
package struct StorageSigner: Sendable {
    static let accessKeyId = "SANDBOXSTORAGEKEY"
    static let region = "sandbox"
    static let service = "s3"
    static let algorithm = "AWS4-HMAC-SHA256"
    /// The download path of a key: `/files/{key}`.
    static let downloadPrefix = "/files/"

    /// The secret every signature is keyed with (kept in the sandbox's database).
    let secret: [UInt8]

    package init(secret: [UInt8]) { self.secret = secret }

    // MARK: upload policies

    /// The form fields of an upload policy for `key`, in the order the upload URL lists them
    /// (the order the contract shows for current accounts).
    func uploadFields(key: String, contentType: String, isPublic: Bool, maximumSize: Int,
                      now: Double, lifetime: Double) -> [(String, String)] {
        let expiry = (now + lifetime).rounded(.down)
        let amzDate = SandboxTime.amzDate(now)
        let credential = Self.credential(date: String(amzDate.prefix(8)))
        var fields: [(String, String)] = [
            ("acl", isPublic ? "public-read" : "authenticated-read"),
            ("content_type", contentType),
            ("expires", SandboxTime.httpDate(expiry)),
            ("key", key),
            ("success_action_status", "201"),
            ("x-amz-algorithm", Self.algorithm),
            ("x-amz-credential", credential),
            ("x-amz-date", amzDate),
        ]
        var conditions: [JSONNode] = fields.map { .object([($0.0, .string($0.1))]) }
        conditions.append(.array([.string("content-length-range"), .int(0), .int(maximumSize)]))
        let document = JSONNode.object([("expiration", .string(SandboxTime.iso8601(expiry))), ("conditions", .array(conditions))])
        let policy = Data(document.serialized.utf8).base64EncodedString()
        fields.insert(("policy", policy), at: 4)
        fields.append(("x-amz-signature", signature(of: policy, date: String(amzDate.prefix(8)))))
        return fields
    }

    /// Checks the fields posted before the file against their policy, as S3 does: the
    /// credential names our key, the signature is ours, the policy has not expired, every
    /// condition holds and every field is covered by one.
    func checkUpload(_ fields: [(String, String)], now: Double) throws(StorageError) -> UploadGrant {
        func field(_ name: String) -> String? { fields.first { $0.0.lowercased() == name }?.1 }
        guard let policy = field("policy") else {
            throw .invalidArgument("Bucket POST must contain a field named 'policy'.")
        }
        guard field("x-amz-algorithm") == Self.algorithm else {
            throw .invalidArgument("The x-amz-algorithm field must be \(Self.algorithm).")
        }
        guard let credential = field("x-amz-credential"), let signature = field("x-amz-signature") else {
            throw .invalidArgument("Bucket POST must contain the fields x-amz-credential and x-amz-signature.")
        }
        let date = try Self.credentialDate(credential)
        guard Self.equalInConstantTime(self.signature(of: policy, date: date), signature.lowercased()) else {
            throw .signatureMismatch
        }
        guard let decoded = Data(base64Encoded: policy),
              let document = try? JSONParser.parse(Array(decoded)),
              case .string(let expirationText)? = document["expiration"],
              let expiration = SandboxTime.parseISO8601(expirationText),
              case .array(let conditions)? = document["conditions"] else { throw .malformedPolicy }
        guard now < expiration else { throw .policyExpired }

        var covered: Set<String> = []
        var range: (Int, Int)?
        for condition in conditions {
            switch condition {
            case .object(let members):
                for (name, expected) in members {
                    guard case .string(let value) = expected else { throw .malformedPolicy }
                    covered.insert(name.lowercased())
                    guard field(name.lowercased()) == value else {
                        throw .policyConditionFailed("[\"eq\", \"$\(name)\", \"\(value)\"]")
                    }
                }
            case .array(let items):
                guard case .string(let operation)? = items.first else { throw .malformedPolicy }
                if operation == "content-length-range" {
                    guard items.count == 3, let low = Self.integer(items[1]), let high = Self.integer(items[2]), low <= high else {
                        throw .malformedPolicy
                    }
                    range = (low, high)
                    continue
                }
                guard items.count == 3, case .string(let variable) = items[1], variable.hasPrefix("$"),
                      case .string(let operand) = items[2] else { throw .malformedPolicy }
                let name = String(variable.dropFirst()).lowercased()
                covered.insert(name)
                let value = field(name) ?? ""
                let holds: Bool
                switch operation.lowercased() {
                case "eq": holds = value == operand
                case "starts-with": holds = value.hasPrefix(operand)
                default: throw .malformedPolicy
                }
                guard holds else { throw .policyConditionFailed("[\"\(operation)\", \"\(variable)\", \"\(operand)\"]") }
            default:
                throw .malformedPolicy
            }
        }
        let exempt: Set<String> = ["policy", "x-amz-signature", "file"]
        let extra = fields.map { $0.0.lowercased() }.filter {
            !exempt.contains($0) && !$0.hasPrefix("x-ignore-") && !covered.contains($0)
        }
        guard extra.isEmpty else {
            throw .accessDenied("Invalid according to Policy: Extra input fields: \(extra.joined(separator: ", "))")
        }
        guard let key = field("key"), BlobFiles.isValidKey(key) else {
            throw .invalidArgument("Bucket POST must contain a field named 'key' naming an object of this storage.")
        }
        let status = field("success_action_status").flatMap { Int($0) }.flatMap { [200, 201, 204].contains($0) ? $0 : nil } ?? 204
        return UploadGrant(key: key, minimumSize: range?.0 ?? 0, maximumSize: range?.1 ?? Int.max, successStatus: status)
    }

    // MARK: download URLs

    /// The path and query of a download URL for `key`, valid `lifetime` seconds (at least one).
    func downloadTarget(key: String, contentType: String, now: Double, lifetime: Double) -> String {
        let amzDate = SandboxTime.amzDate(now)
        let path = Self.downloadPrefix + key
        var query: [(String, String)] = [
            ("response-content-type", contentType),
            ("x-amz-algorithm", Self.algorithm),
            ("x-amz-credential", Self.credential(date: String(amzDate.prefix(8)))),
            ("x-amz-date", amzDate),
            ("x-amz-expires", String(max(1, Int(lifetime.rounded(.up))))),
        ]
        query.append(("x-amz-signature", signature(of: Self.downloadStringToSign(path: path, query: query),
                                                   date: String(amzDate.prefix(8)))))
        return path + "?" + Self.query(query)
    }

    /// `name=value` pairs, both sides percent-encoded, joined with `&`.
    static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&")
    }

    /// Checks a GET of `path` with its (decoded) query: our credential and signature, not expired.
    func checkDownload(path: String, query: [(String, String)], now: Double) throws(StorageError) -> DownloadGrant {
        func value(_ name: String) -> String? { query.first { $0.0.lowercased() == name }?.1 }
        guard path.hasPrefix(Self.downloadPrefix) else { throw .notFound }
        let key = String(path.dropFirst(Self.downloadPrefix.count))
        guard BlobFiles.isValidKey(key) else { throw .noSuchKey }
        guard value("x-amz-algorithm") == Self.algorithm, let credential = value("x-amz-credential"),
              let signature = value("x-amz-signature"), let amzDate = value("x-amz-date"),
              let signedAt = SandboxTime.parseAmzDate(amzDate),
              let lifetime = value("x-amz-expires").flatMap({ Int($0) }), lifetime > 0 else {
            throw .accessDenied("Query-string authentication requires the X-Amz-Algorithm, X-Amz-Credential, "
                                + "X-Amz-Date, X-Amz-Expires and X-Amz-Signature parameters")
        }
        let date = try Self.credentialDate(credential)
        let signed = query.filter { $0.0.lowercased() != "x-amz-signature" }
        guard Self.equalInConstantTime(self.signature(of: Self.downloadStringToSign(path: path, query: signed), date: date),
                                       signature.lowercased()) else { throw .signatureMismatch }
        guard now < signedAt + Double(lifetime) else { throw .requestExpired }
        return DownloadGrant(key: key, contentType: value("response-content-type") ?? "application/octet-stream")
    }

    /// `GET`, the path and the query pairs but the signature (raw `name=value`, sorted bytewise), one per line.
    private static func downloadStringToSign(path: String, query: [(String, String)]) -> String {
        let pairs = query.map { Array("\($0.0)=\($0.1)".utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        return "GET\n\(path)\n" + pairs.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "&")
    }

    // MARK: signatures

    /// Lowercase hex HMAC-SHA256 of `text` with the signature-version-4 key of `date` (`yyyymmdd`).
    private func signature(of text: String, date: String) -> String {
        let key = Self.signingKey(secret: secret, date: date, region: Self.region, service: Self.service)
        return Hex.string(HMACAlgorithm.sha256.code(key: key, message: Array(text.utf8)))
    }

    /// Signature version 4's derived key: HMACs of the date, region, service and
    /// `aws4_request`, starting from `AWS4` + the secret.
    static func signingKey(secret: [UInt8], date: String, region: String, service: String) -> [UInt8] {
        var key = Array("AWS4".utf8) + secret
        for part in [date, region, service, "aws4_request"] {
            key = HMACAlgorithm.sha256.code(key: key, message: Array(part.utf8))
        }
        return key
    }

    private static func credential(date: String) -> String { "\(accessKeyId)/\(date)/\(region)/\(service)/aws4_request" }

    /// The date of a `KEY/yyyymmdd/region/s3/aws4_request` credential that names our key.
    private static func credentialDate(_ credential: String) throws(StorageError) -> String {
        let parts = credential.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[2] == region, parts[3] == service, parts[4] == "aws4_request",
              parts[1].utf8.count == 8, parts[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw .invalidArgument("The x-amz-credential field is malformed: expected KEY/yyyymmdd/\(region)/\(service)/aws4_request.")
        }
        guard parts[0] == accessKeyId else { throw .unknownAccessKey }
        return parts[1]
    }

    private static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        ConstantTime.equal(Array(a.utf8), Array(b.utf8))
    }

    private static func integer(_ node: JSONNode) -> Int? {
        switch node {
        case .number(let text), .string(let text): return Int(text)
        default: return nil
        }
    }

    /// RFC 3986 unreserved bytes as they are, every other byte `%XX`.
    static func percentEncode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(digits[Int(b >> 4)])
                out.unicodeScalars.append(digits[Int(b & 0xF)])
            }
        }
        return out
    }
}
