#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import HTTPTransport
import MessageCache
import QuickBloxAPI
import Transfers

/// Finishes the files of an outbox entry on the content API (docs/protocol.md §8)
/// so that its message may be sent: every file is opened and checked first (one
/// changed or removed since it was queued is refused), every blob is created before
/// any byte goes (a file larger than the server takes is refused at once), then
/// each file is uploaded and completed, in order. Each step is kept in the cache
/// as it happens (`OutboxUpload`), so a process killed anywhere leaves the entry for
/// `outbox flush`, which goes on from there: a completed file is reused, an
/// uploaded one only completed, and one cut short is uploaded again, whole (the
/// storage keeps no partial upload), to its blob while the blob's permission lasts,
/// else to a new blob. An earlier run's blob that the storage no longer takes gets
/// a new blob once.
package final class OutboxUploader {
    package let service: MessagingService
    private let owner: Int
    private let blobs: BlobUploader
    private let now: () -> Int
    /// A long upload renews its entry's claim this often (seconds), so that no flush
    /// takes the entry for stale meanwhile (`ChatCache.claim`'s `staleAfter`).
    static let claimRenewal = 60

    /// `owner` holds the entries' claims (this process).
    package init(service: MessagingService, owner: Int, now: @escaping () -> Int = { Int(time(nil)) }) {
        self.service = service; self.owner = owner; self.now = now
        blobs = BlobUploader(api: service.api)
    }

    /// Uploads and completes what `entry` still needs and returns it ready to send:
    /// every upload completed, `attachmentsJSON` the attachments its message carries.
    /// `progress` hears each file's bytes as they go. A file too large for the server
    /// is bad input (`.invalidInput`): the entry can never be sent as it is.
    package func finish(_ entry: OutboxEntry,
                       progress: (OutboxUpload, TransferProgress) -> Void = { _, _ in }) throws(Failure) -> OutboxEntry {
        var entry = entry
        let id = entry.clientMessageID
        // The files still to go, opened and checked before anything is asked of the server.
        var sources: [Int: UploadSource] = [:]
        for (index, upload) in entry.uploads.enumerated() where upload.state != .completed {
            sources[index] = try UploadSource.kept(Self.kept(upload), description: upload.source, name: upload.name, contentType: upload.contentType)
        }
        // Blobs first: their policies say the largest file the server takes.
        var madeHere: Set<Int> = []
        for index in sources.keys.sorted() {
            if entry.uploads[index].nextStep(now: now()) == .create {
                try create(&entry.uploads[index], of: id)
                madeHere.insert(index)
            }
            if entry.uploads[index].state == .created, let source = sources[index] {
                try blobs.checkSize(of: source, for: Self.blob(entry.uploads[index]))
            }
        }
        for index in sources.keys.sorted() {
            guard let source = sources[index] else { continue }
            try finish(&entry.uploads[index], source: source, of: id, madeHere: madeHere.contains(index), progress: progress)
        }
        let attachments = entry.uploads.map(Self.attachment)
        let json = CacheRecords.attachmentsJSON(attachments)
        if entry.attachmentsJSON != json, let last = entry.uploads.last {
            _ = try service.cached { () throws(MessageCacheError) in try service.cache.recordUpload(last, of: id, attachmentsJSON: json) }
            entry.attachmentsJSON = json
        }
        return entry
    }

    /// One file through its remaining steps.
    private func finish(_ upload: inout OutboxUpload, source: UploadSource, of id: String, madeHere: Bool,
                        progress: (OutboxUpload, TransferProgress) -> Void) throws(Failure) {
        var freshBlob = madeHere
        var uploadedHere = false
        var triedAgain = false
        while true {
            switch upload.nextStep(now: now()) {
            case .create:
                try create(&upload, of: id)
                freshBlob = true
                try blobs.checkSize(of: source, for: Self.blob(upload))
            case .upload:
                var renewed = now()
                let current = upload
                do {
                    try blobs.uploadFile(source, to: Self.blob(upload)) { bytes in
                        if now() - renewed >= Self.claimRenewal {
                            renewed = now()
                            try? service.cache.renewClaim(clientMessageID: id, owner: owner, now: renewed)
                        }
                        progress(current, bytes)
                    }
                } catch {
                    // An earlier run's blob the storage no longer takes (its permission,
                    // or the storage's address, is no longer good): a new blob, once.
                    guard !freshBlob, !triedAgain, error.kind == .failure || error.kind == .temporary else {
                        throw error
                    }
                    triedAgain = true
                    upload.needsNewBlob()
                    try record(upload, of: id)
                    continue
                }
                // An edit while it was sent may have mixed old and new bytes.
                try source.verifyUnchanged(Self.kept(upload))
                upload.uploaded()
                uploadedHere = true
                try record(upload, of: id)
            case .complete:
                do {
                    _ = try blobs.complete(Self.blob(upload), for: source)
                } catch {
                    // A file an earlier run left that the server does not find whole: up again, once.
                    guard !uploadedHere, !triedAgain, error.kind == .failure else { throw error }
                    triedAgain = true
                    upload.needsUploadAgain()
                    try record(upload, of: id)
                    continue
                }
                upload.completed()
                try record(upload, of: id)
            case .done:
                return
            }
        }
    }

    /// A new blob for the file, kept before anything is uploaded to it.
    private func create(_ upload: inout OutboxUpload, of id: String) throws(Failure) {
        let blob: QBBlob
        do { blob = try service.api.createBlob(name: upload.name, contentType: upload.contentType) } catch {
            throw Failure(describing: error, doing: "create a blob for \(upload.source)")
        }
        // `params` as the server gave it: the ticket is read from it again when the upload resumes.
        upload.created(blobID: blob.id, uid: blob.uid, uploadURL: blob.raw["blob_object_access"]?["params"]?.stringValue ?? "",
                       expiresAt: blob.upload?.expires.map { Int($0.timeIntervalSince1970) })
        try record(upload, of: id)
    }

    private func record(_ upload: OutboxUpload, of id: String) throws(Failure) {
        _ = try service.cached { () throws(MessageCacheError) in try service.cache.recordUpload(upload, of: id) }
    }

    // MARK: - Between the cache's rows and the content API's values

    /// The blob an upload was given (its id, uid and upload permission).
    static func blob(_ upload: OutboxUpload) -> QBBlob {
        let expires = upload.uploadExpiresAt.map { Date(timeIntervalSince1970: Double($0)) }
        return QBBlob(id: upload.blobID ?? 0, uid: upload.blobUID ?? "", name: upload.name, contentType: upload.contentType,
                      upload: upload.uploadURL.flatMap { QBBlobUploadTicket(params: $0, expires: expires) })
    }

    static func kept(_ upload: OutboxUpload) -> KeptUpload {
        let method: KeptUpload.Method = switch upload.keeping {
        case .clone: .clone
        case .link: .link
        case .spool: .spool
        case .original: .original
        }
        return KeptUpload(method: method, path: upload.file, size: upload.size, modifiedAt: upload.modifiedAt,
                          inode: upload.inode, device: upload.device)
    }

    /// The attachment a completed upload makes (docs/protocol.md §8), as `BlobUploader.attachment` makes it.
    static func attachment(_ upload: OutboxUpload) -> QBAttachment {
        QBAttachment(type: upload.type, id: upload.blobUID, name: upload.name, size: Int(upload.size), contentType: upload.contentType)
    }
}

@available(*, unavailable)
extension OutboxUploader: Sendable {}

extension OutboxUpload {
    /// The row for a file `send --attach` keeps (`UploadSource.keep`) at `position`.
    package init(position: Int, source: UploadSource, kept: KeptUpload) {
        let keeping: Keeping = switch kept.method {
        case .clone: .clone
        case .link: .link
        case .spool: .spool
        case .original: .original
        }
        self.init(position: position, source: source.description, file: kept.path, keeping: keeping, name: source.name,
                  type: source.kind.rawValue, contentType: source.contentType, size: kept.size, modifiedAt: kept.modifiedAt,
                  inode: kept.inode, device: kept.device)
    }
}
