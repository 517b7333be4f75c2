// One upload to the storage endpoint as its form streams in (docs/protocol.md §8).
import SandboxCrypto

/// The fields of a multipart upload, piece by piece as the parser hands them over:
/// fields before `file` are collected, the policy is checked when `file` begins, the
/// file's bytes go to disk within the policy's size range and `--max-upload`, and
/// fields after it are ignored, as S3 does. Confined to the storage thread.
final class UploadReceiver {
    /// Room for the fields before the file (S3 allows 20 KB; the policy alone is ~1 KB).
    static let maximumFieldBytes = 64 * 1024

    private let signer: StorageSigner
    private let files: BlobFiles
    private let maximumUpload: Int
    private let now: @Sendable () -> Double
    private var fields: [(String, [UInt8])] = []
    private var fieldBytes = 0
    private var grant: UploadGrant?
    private var writer: BlobFileWriter?
    /// The MD5 of the file's bytes so far: S3's ETag of the object.
    private var digest: StreamingDigest?
    private var fileStarted = false
    private var fileEnded = false
    /// Why the upload is refused; once set, nothing more is written.
    private(set) var failure: StorageError?

    init(signer: StorageSigner, files: BlobFiles, maximumUpload: Int, now: @escaping @Sendable () -> Double) {
        self.signer = signer
        self.files = files
        self.maximumUpload = maximumUpload
        self.now = now
    }

    /// The key being written, once the policy has been accepted.
    var key: String? { grant?.key }

    /// Refuses the upload (a malformed body, say); what was written is removed.
    func fail(_ error: StorageError) {
        guard failure == nil else { return }
        failure = error
        writer?.discard()
        writer = nil
    }

    /// A piece of field `name` at `offset` in its value. False once the upload is refused
    /// (the caller stops parsing and only drains the rest of the body).
    ///
    /// libmicrohttpd may open a field with an empty piece and go on at offset 0, so offset 0
    /// starts another field only when the current one of that name already has bytes.
    func receive(name: String, offset: UInt64, bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        if fileEnded { return true }
        if name == "file" {
            if fileStarted && offset == 0 && (writer?.count ?? 0) > 0 {
                fileEnded = true   // a second file: ignored, like any field after the first
                return true
            }
            if !fileStarted {
                fileStarted = true
                do throws(StorageError) {
                    let granted = try signer.checkUpload(fields.map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }, now: now())
                    grant = granted
                    writer = try files.makeWriter(for: granted.key)
                    digest = StreamingDigest()
                } catch {
                    fail(error)
                    return false
                }
            }
            guard let writer, let grant else { return false }
            let limit = min(grant.maximumSize, maximumUpload)
            guard writer.count + bytes.count <= limit else {
                fail(.entityTooLarge(maximum: limit))
                return false
            }
            do throws(StorageError) { try writer.append(bytes) } catch {
                fail(error)
                return false
            }
            digest?.update(bytes)
            return true
        }
        if fileStarted {
            fileEnded = true
            return true
        }
        fieldBytes += bytes.count + (offset == 0 ? name.utf8.count : 0)
        guard fieldBytes <= Self.maximumFieldBytes else {
            fail(.fieldsTooLarge)
            return false
        }
        if fields.last?.0 != name || (offset == 0 && fields.last?.1.isEmpty == false) {
            fields.append((name, Array(bytes)))
        } else {
            fields[fields.count - 1].1.append(contentsOf: bytes)
        }
        return true
    }

    /// The body has ended: the file is given its name and the success status is returned,
    /// or the reason it was refused is thrown (and nothing is left on disk).
    func finish() throws(StorageError) -> Int {
        if let failure { throw failure }
        guard fileStarted, let writer, let grant else {
            fail(.noFile)
            throw .noFile
        }
        guard writer.count >= grant.minimumSize else {
            fail(.entityTooSmall(minimum: grant.minimumSize))
            throw .entityTooSmall(minimum: grant.minimumSize)
        }
        do throws(StorageError) { try writer.commit() } catch {
            fail(error)
            throw error
        }
        storedBytes = writer.count
        etag = digest.map { "\"\($0.hexDigest())\"" }
        digest = nil
        self.writer = nil
        return grant.successStatus
    }

    /// The connection is gone: whatever was not committed is removed.
    func abandon() {
        writer?.discard()
        writer = nil
    }

    /// The size of the file `finish()` stored.
    private(set) var storedBytes = 0
    /// The stored file's ETag as S3 quotes it (its MD5 in hex), once `finish()` stored it.
    private(set) var etag: String?
}

@available(*, unavailable) extension UploadReceiver: Sendable {}
