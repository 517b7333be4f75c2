// The storage endpoint's pure parts (docs/protocol.md §8): policies, signed URLs, ranges,
// S3 error bodies and an upload streaming to disk, without sockets and with a fixed clock.
import Foundation
import Testing
import TestSupport
@testable import SandboxBlobEndpoint
import SandboxClock
import SandboxCrypto

/// 2026-11-30T17:55:19Z
private let now: Double = 1_796_061_319

private func signer(_ secret: String = "storage-secret") -> StorageSigner { StorageSigner(secret: Array(secret.utf8)) }

private func fields(maximumSize: Int = 1000, lifetime: Double = 3600, key: String = "0123456789abcdef0123456789abcdef00")
    -> [(String, String)] {
    signer().uploadFields(key: key, contentType: "image/jpeg", isPublic: false, maximumSize: maximumSize, now: now, lifetime: lifetime)
}

private func replacing(_ name: String, with value: String, in fields: [(String, String)]) -> [(String, String)] {
    fields.map { $0.0 == name ? ($0.0, value) : $0 }
}

/// The storage error `body` throws; nil when it succeeds.
private func refusal(_ body: () throws -> Void) -> StorageError? {
    do {
        try body()
        return nil
    } catch {
        return error as? StorageError
    }
}

@Suite struct StorageSignerTests {
    @Test func signingKeyFollowsSignatureVersion4() {
        // AWS's published example of a derived signing key.
        let key = StorageSigner.signingKey(secret: Array("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".utf8),
                                           date: "20120215", region: "us-east-1", service: "iam")
        #expect(Hex.string(key) == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d")
    }

    @Test func uploadFieldsAreTheContractsCurrentShapeInURLOrder() throws {
        let f = fields()
        #expect(f.map(\.0) == ["acl", "content_type", "expires", "key", "policy", "success_action_status",
                               "x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-signature"])
        let value = Dictionary(f, uniquingKeysWith: { a, _ in a })
        #expect(value["acl"] == "authenticated-read")
        #expect(value["expires"] == "Mon, 30 Nov 2026 18:55:19 GMT")
        #expect(value["x-amz-credential"] == "SANDBOXSTORAGEKEY/20261130/sandbox/s3/aws4_request")
        #expect(value["x-amz-date"] == "20261130T175519Z")
        let policy = try #require(Data(base64Encoded: value["policy"] ?? "").map { String(decoding: $0, as: UTF8.self) })
        #expect(policy.hasPrefix(#"{"expiration":"2026-11-30T18:55:19Z","conditions":[{"acl":"authenticated-read"}"#))
        #expect(policy.hasSuffix(#"["content-length-range",0,1000]]}"#))
        let publicFields = signer().uploadFields(key: "ab00", contentType: "text/plain", isPublic: true, maximumSize: 1,
                                                 now: now, lifetime: 60)
        #expect(publicFields.first?.1 == "public-read")
    }

    @Test func itsOwnPolicyIsGranted() throws {
        let grant = try signer().checkUpload(fields(), now: now + 10)
        #expect(grant == UploadGrant(key: "0123456789abcdef0123456789abcdef00", minimumSize: 0, maximumSize: 1000, successStatus: 201))
    }

    @Test func aForgedPolicyDoesNotMatchItsSignature() throws {
        // The same policy with a bigger size limit, re-encoded, under the old signature.
        let original = fields()
        let policy = try #require(original.first { $0.0 == "policy" }.flatMap { Data(base64Encoded: $0.1) })
        let forged = String(decoding: policy, as: UTF8.self).replacingOccurrences(of: ",1000]", with: ",1000000000]")
        let error = refusal { _ = try signer().checkUpload(replacing("policy", with: Data(forged.utf8).base64EncodedString(), in: original), now: now) }
        #expect(error == .signatureMismatch)
        #expect(error?.status == 403)
    }

    @Test func anotherSecretsPolicyIsRefused() {
        let error = refusal { _ = try signer("someone-else").checkUpload(fields(), now: now) }
        #expect(error?.code == "SignatureDoesNotMatch")
    }

    @Test func aFieldThatDiffersFromThePolicyIsRefused() {
        let error = refusal {
            _ = try signer().checkUpload(replacing("key", with: "ffffffffffffffffffffffffffffffff00", in: fields()), now: now)
        }
        #expect(error?.status == 403)
        #expect(error?.code == "AccessDenied")
        #expect(error?.message == #"Invalid according to Policy: Policy Condition failed: ["eq", "$key", "0123456789abcdef0123456789abcdef00"]"#)
    }

    @Test func anExpiredPolicyIsRefused() {
        #expect(refusal { _ = try signer().checkUpload(fields(lifetime: 60), now: now + 59) } == nil)
        let error = refusal { _ = try signer().checkUpload(fields(lifetime: 60), now: now + 60) }
        #expect(error == .policyExpired)
        #expect(error?.status == 403)
    }

    @Test func aWrongAccessKeyIsRefused() {
        let f = replacing("x-amz-credential", with: "SOMEONEELSE/20261130/sandbox/s3/aws4_request", in: fields())
        let error = refusal { _ = try signer().checkUpload(f, now: now) }
        #expect(error?.code == "InvalidAccessKeyId")
        #expect(error?.status == 403)
    }

    @Test func aFieldThePolicyDoesNotNameIsRefused() {
        let error = refusal { _ = try signer().checkUpload(fields() + [("acl2", "x")], now: now) }
        #expect(error?.message == "Invalid according to Policy: Extra input fields: acl2")
        // x-ignore- fields are exempt, as on S3.
        #expect(refusal { _ = try signer().checkUpload(fields() + [("x-ignore-note", "x")], now: now) } == nil)
    }

    @Test func aMissingPolicyOrSignatureIsABadRequest() {
        let noPolicy = refusal { _ = try signer().checkUpload(fields().filter { $0.0 != "policy" }, now: now) }
        #expect(noPolicy?.status == 400)
        let noSignature = refusal { _ = try signer().checkUpload(fields().filter { $0.0 != "x-amz-signature" }, now: now) }
        #expect(noSignature?.status == 400)
    }

    @Test func downloadURLsAreSignedAndExpire() throws {
        let target = signer().downloadTarget(key: "ab00", contentType: "image/png", now: now, lifetime: 30)
        #expect(target.hasPrefix("/files/ab00?response-content-type=image%2Fpng&x-amz-algorithm=AWS4-HMAC-SHA256&"))
        #expect(target.contains("&x-amz-expires=30&x-amz-signature="))
        let (path, query) = try Self.split(target)
        #expect(try signer().checkDownload(path: path, query: query, now: now + 29) == DownloadGrant(key: "ab00", contentType: "image/png"))
        #expect(refusal { _ = try signer().checkDownload(path: path, query: query, now: now + 30) } == .requestExpired)
        // Another key, or a changed content type, under the same signature.
        #expect(refusal { _ = try signer().checkDownload(path: "/files/cd00", query: query, now: now) } == .signatureMismatch)
        let retyped = query.map { $0.0 == "response-content-type" ? ($0.0, "text/html") : $0 }
        #expect(refusal { _ = try signer().checkDownload(path: path, query: retyped, now: now) } == .signatureMismatch)
        #expect(refusal { _ = try signer().checkDownload(path: path, query: [], now: now) }?.status == 403)
        #expect(refusal { _ = try signer().checkDownload(path: "/files/../x", query: query, now: now) }?.code == "NoSuchKey")
    }

    @Test func aFractionalLifetimeRoundsUpToAWholeSecond() throws {
        let target = signer().downloadTarget(key: "ab00", contentType: "a/b", now: now, lifetime: 0.2)
        #expect(target.contains("&x-amz-expires=1&"))
    }

    /// `/path?a=b&c=d` with percent-decoding, as libmicrohttpd hands the query over.
    static func split(_ target: String) throws -> (String, [(String, String)]) {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        let pairs = parts[1].split(separator: "&").map { pair -> (String, String) in
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (kv[0].removingPercentEncoding ?? kv[0], (kv.count > 1 ? kv[1] : "").removingPercentEncoding ?? "")
        }
        return (parts[0], pairs)
    }
}

@Suite struct ByteRangeTests {
    @Test(arguments: [
        (nil, 100, ByteRange.whole),
        ("bytes=0-9", 100, .part(offset: 0, length: 10)),
        ("bytes=90-", 100, .part(offset: 90, length: 10)),
        ("bytes=90-1000", 100, .part(offset: 90, length: 10)),
        ("bytes=-10", 100, .part(offset: 90, length: 10)),
        ("bytes=-1000", 100, .part(offset: 0, length: 100)),
        ("bytes=100-", 100, .unsatisfiable),
        ("bytes=-0", 100, .unsatisfiable),
        ("bytes=0-", 0, .unsatisfiable),
        ("bytes=0-1,5-6", 100, .whole),
        ("items=0-1", 100, .whole),
        ("bytes=5-1", 100, .whole),
        ("bytes=x-1", 100, .whole),
        ("bytes=99999999999999999999999-", 100, .unsatisfiable),
    ] as [(String?, Int, ByteRange)])
    func rangeHeaders(header: String?, size: Int, expected: ByteRange) {
        #expect(ByteRange.parse(header, size: size) == expected)
    }
}

@Suite struct StorageErrorTests {
    @Test func theBodyIsS3sErrorDocumentEscaped() {
        let error = StorageError.accessDenied("a < b & \"c\"")
        #expect(error.xml == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code>"
                + "<Message>a &lt; b &amp; \"c\"</Message></Error>")
        #expect(StorageError.entityTooLarge(maximum: 10).status == 413)
        #expect(StorageError.entityTooLarge(maximum: 10).code == "EntityTooLarge")
    }
}

@Suite struct StorageTimeTests {
    @Test func s3DatesRoundTrip() {
        #expect(SandboxTime.amzDate(now) == "20261130T175519Z")
        #expect(SandboxTime.parseAmzDate("20261130T175519Z") == now)
        #expect(SandboxTime.parseAmzDate("20261130T1755Z") == nil)
        #expect(SandboxTime.parseISO8601("2026-11-30T17:55:19Z") == now)
        #expect(SandboxTime.parseISO8601("2026-11-30T17:55:19.250Z") == now)
        #expect(SandboxTime.parseISO8601("2026-13-30T17:55:19Z") == nil)
        #expect(SandboxTime.httpDate(now) == "Mon, 30 Nov 2026 17:55:19 GMT")
    }
}

@Suite struct UploadReceiverTests {
    let directory: TemporaryDirectory
    let files: BlobFiles
    static let key = "0123456789abcdef0123456789abcdef00"

    init() throws {
        directory = try TemporaryDirectory(prefix: "chatctl-blobs")
        files = try BlobFiles.prepare(directory: directory.path)
    }

    func receiver(maximumUpload: Int = 1000) -> UploadReceiver {
        UploadReceiver(signer: signer(), files: files, maximumUpload: maximumUpload, now: { now })
    }

    /// Feeds the fields (values in two pieces each, as a parser may) and then `file` in 7-byte pieces.
    func feed(_ receiver: UploadReceiver, _ fields: [(String, String)], file: [UInt8]) {
        for (name, value) in fields {
            let bytes = Array(value.utf8), half = bytes.count / 2
            _ = bytes[..<half].withUnsafeBytes { receiver.receive(name: name, offset: 0, bytes: $0) }
            _ = bytes[half...].withUnsafeBytes { receiver.receive(name: name, offset: UInt64(half), bytes: $0) }
        }
        var offset = 0
        repeat {
            let piece = Array(file[offset..<min(file.count, offset + 7)])
            guard piece.withUnsafeBytes({ receiver.receive(name: "file", offset: UInt64(offset), bytes: $0) }) else { return }
            offset += 7
        } while offset < file.count
    }

    @Test func aFileWithinItsPolicyIsStoredUnderItsKey() throws {
        let r = receiver()
        let content = Array((0..<500).map { UInt8($0 % 251) })
        feed(r, fields(), file: content)
        #expect(files.entries().count == 1, "the upload streams into one temporary file")
        #expect(files.size(of: Self.key) == nil, "not under its name before the end")
        // A field after the file is ignored, as on S3.
        _ = Array("late".utf8).withUnsafeBytes { r.receive(name: "acl", offset: 0, bytes: $0) }
        #expect(try r.finish() == 201)
        #expect(try Data(contentsOf: URL(fileURLWithPath: files.path(of: Self.key))) == Data(content))
        #expect(files.entries() == [Self.key])
    }

    @Test func fieldsOpenedWithAnEmptyPieceLoseNothing() throws {
        // libmicrohttpd may call with zero bytes at offset 0 before a value's first bytes.
        let r = receiver()
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        for (name, value) in fields() {
            _ = r.receive(name: name, offset: 0, bytes: empty)
            _ = Array(value.utf8).withUnsafeBytes { r.receive(name: name, offset: 0, bytes: $0) }
        }
        _ = r.receive(name: "file", offset: 0, bytes: empty)
        _ = Array("abc".utf8).withUnsafeBytes { r.receive(name: "file", offset: 0, bytes: $0) }
        _ = Array("def".utf8).withUnsafeBytes { r.receive(name: "file", offset: 3, bytes: $0) }
        // A second file field is ignored.
        _ = Array("zzz".utf8).withUnsafeBytes { r.receive(name: "file", offset: 0, bytes: $0) }
        #expect(try r.finish() == 201)
        #expect(try Data(contentsOf: URL(fileURLWithPath: files.path(of: Self.key))) == Data("abcdef".utf8))
        #expect(r.etag == "\"e80b5017098950fc58aad83c8c14978e\"", "S3's ETag: the stored bytes' MD5, quoted")
    }

    @Test func aPostResponseIsS3sDocument() {
        let posted = PostResponse(location: "http://127.0.0.1:9/files/\(Self.key)", bucket: "sandbox", key: Self.key,
                                  etag: "\"e80b5017098950fc58aad83c8c14978e\"")
        #expect(posted.xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <PostResponse><Location>http://127.0.0.1:9/files/\(Self.key)</Location><Bucket>sandbox</Bucket>\
            <Key>\(Self.key)</Key><ETag>"e80b5017098950fc58aad83c8c14978e"</ETag></PostResponse>
            """)
    }

    @Test func aFileOverThePolicysRangeIsRefusedAndRemoved() {
        let r = receiver()
        feed(r, fields(maximumSize: 100), file: [UInt8](repeating: 1, count: 101))
        #expect(r.failure == .entityTooLarge(maximum: 100))
        #expect(refusal { _ = try r.finish() }?.status == 413)
        #expect(files.entries().isEmpty)
    }

    @Test func aFileOverMaxUploadIsRefusedWhateverThePolicySays() {
        let r = receiver(maximumUpload: 50)
        feed(r, fields(maximumSize: 1000), file: [UInt8](repeating: 1, count: 51))
        #expect(r.failure?.code == "EntityTooLarge")
        #expect(files.entries().isEmpty)
    }

    @Test func aForgedPolicyWritesNothing() {
        let r = receiver()
        feed(r, replacing("x-amz-signature", with: String(repeating: "0", count: 64), in: fields()), file: [1, 2, 3])
        #expect(r.failure == .signatureMismatch)
        #expect(files.entries().isEmpty)
    }

    @Test func noFileIsABadRequest() throws {
        let r = receiver()
        feed(r, fields(), file: [])
        // feed sends one empty piece of `file`; a form without the field at all:
        let bare = receiver()
        for (name, value) in fields() { _ = Array(value.utf8).withUnsafeBytes { bare.receive(name: name, offset: 0, bytes: $0) } }
        #expect(refusal { _ = try bare.finish() } == .noFile)
        #expect(try r.finish() == 201, "an empty file is a file")
    }

    @Test func anAbandonedUploadLeavesNothing() {
        let r = receiver()
        feed(r, fields(), file: [UInt8](repeating: 7, count: 300))
        #expect(files.entries().count == 1)
        r.abandon()
        #expect(files.entries().isEmpty)
    }

    @Test func tooMuchBeforeTheFileIsRefused() {
        let r = receiver()
        let big = String(repeating: "x", count: UploadReceiver.maximumFieldBytes)
        _ = Array(big.utf8).withUnsafeBytes { r.receive(name: "x-ignore-padding", offset: 0, bytes: $0) }
        #expect(r.failure == .fieldsTooLarge)
    }

    @Test func leftoversOfACrashAreRemovedOnStart() throws {
        _ = FileManager.default.createFile(atPath: directory.file(".upload-ab00-123456"), contents: Data([1]))
        _ = FileManager.default.createFile(atPath: directory.file("ab00"), contents: Data([2]))
        let again = try BlobFiles.prepare(directory: directory.path)
        #expect(again.entries() == ["ab00"])
    }
}
