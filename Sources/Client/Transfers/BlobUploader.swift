import Diagnostics
import HTTPTransport
import QuickBloxAPI

/// Puts a file on the content API (docs/protocol.md §8): create the blob, upload
/// the file to where the server says (`file` last), complete it with its size.
/// The steps are public too, so that a sender that must survive a kill (the
/// outbox) can keep the created blob and finish later.
package final class BlobUploader {
    package let api: QuickBloxClient

    package init(api: QuickBloxClient) { self.api = api }

    /// All three steps; returns the completed blob (its `size` set).
    package func upload(_ source: UploadSource, isPublic: Bool = false,
                       progress: (TransferProgress) -> Void = { _ in }) throws(Failure) -> QBBlob {
        let blob = try create(for: source, isPublic: isPublic)
        return try send(source, to: blob, progress: progress)
    }

    /// `POST /blobs.json` for the source's name and content type.
    package func create(for source: UploadSource, isPublic: Bool = false) throws(Failure) -> QBBlob {
        do { return try api.createBlob(name: source.name, contentType: source.contentType, isPublic: isPublic) } catch {
            throw Failure(describing: error, doing: "create a blob for \(source.description)")
        }
    }

    /// Uploads the file to a created blob and completes it. Sending again to the
    /// same blob replaces what an interrupted attempt left.
    package func send(_ source: UploadSource, to blob: QBBlob, progress: (TransferProgress) -> Void = { _ in }) throws(Failure) -> QBBlob {
        try uploadFile(source, to: blob, progress: progress)
        return try complete(blob, for: source)
    }

    /// The upload alone: the file to the blob's storage URL. A file larger than the
    /// blob's policy allows is refused before any byte goes (bad input).
    package func uploadFile(_ source: UploadSource, to blob: QBBlob, progress: (TransferProgress) -> Void = { _ in }) throws(Failure) {
        try checkSize(of: source, for: blob)
        do { try api.uploadBlobFile(blob, file: source.uploadFile, progress: progress) } catch {
            throw Self.uploadFailure(error, source: source)
        }
    }

    /// Bad input when the blob's policy names a largest size (S3's
    /// `content-length-range`) below the file's.
    package func checkSize(of source: UploadSource, for blob: QBBlob) throws(Failure) {
        if let limit = blob.upload?.maximumSize, source.size > limit {
            throw Failure(.invalidInput, "upload \(source.description): the server takes no file this large (\(source.size) bytes; its limit is \(limit) bytes)")
        }
    }

    /// The completion alone: the server is told the uploaded file's size. Returns the
    /// blob as completed. Completing again is harmless.
    package func complete(_ blob: QBBlob, for source: UploadSource) throws(Failure) -> QBBlob {
        do { try api.completeBlob(id: blob.id, size: source.size) } catch {
            throw Failure(describing: error, doing: "complete the upload of \(source.description)")
        }
        var completed = blob
        completed.size = source.size
        completed.status = "complete"
        return completed
    }

    /// The message attachment that refers to an uploaded blob (docs/protocol.md §8).
    package static func attachment(for blob: QBBlob, source: UploadSource) -> QBAttachment {
        QBAttachment(type: source.kind.rawValue, id: blob.uid, name: source.name, size: blob.size.map(Int.init) ?? Int(source.size),
                     contentType: source.contentType)
    }

    /// The storage's refusals in a person's words: too large (413, `EntityTooLarge`),
    /// an expired or forged permission (403), else as any REST failure.
    static func uploadFailure(_ error: QuickBloxError, source: UploadSource) -> Failure {
        let reason = error.reasons.joined(separator: "; ")
        let what = "upload \(source.description)"
        if error.status == 413 || reason.contains("EntityTooLarge") {
            return Failure(.invalidInput, "\(what): the server takes no file this large (\(source.size) bytes): \(reason)")
        }
        if case .transport(.localFile) = error.kind {
            return Failure(.failure, "\(what): \(reason)")
        }
        if error.status == 403 {
            return Failure(.failure, "\(what): the storage refused it: \(reason)", hint: "try again: a new upload gets a new permission")
        }
        return Failure(describing: error, doing: what)
    }
}

@available(*, unavailable)
extension BlobUploader: Sendable {}
