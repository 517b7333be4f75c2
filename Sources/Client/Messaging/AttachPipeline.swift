#if canImport(Glibc)
import Glibc
#endif
import ChatIdentifiers
import Diagnostics
import HTTPTransport
import MessageCache
import Transfers

/// The attach pipeline (docs/protocol.md §8), one for `send --attach`, the chat view's
/// `/attach` and the outbox's unfinished entries: every file opened, judged and kept where
/// a later process can read it before anything is queued (bad input leaves nothing
/// behind); the entry and its files in the outbox before the first byte is uploaded; each
/// file uploaded and completed with every step recorded (`OutboxUploader`), so a killed
/// sender's work is finished by the next flush.
package struct AttachPipeline {
    package let service: MessagingService
    package let owner: Int

    package init(service: MessagingService, owner: Int) {
        self.service = service; self.owner = owner
    }

    /// Files opened and kept, not queued yet: `discard` removes the copies made of them.
    package struct KeptFiles {
        package fileprivate(set) var uploads: [OutboxUpload] = []
        fileprivate var ownCopies: [String] = []

        /// Removes the copies kept for them (the message was not queued after all).
        package func discard() { for path in ownCopies { unlink(path) } }
    }

    /// Keeps each source (in order: their positions) in `directory`: a clone, a hard link, or a
    /// copy, so the message can go later from any process. A failure keeps none of them.
    package static func keep(_ sources: [UploadSource], in directory: String) throws(Failure) -> KeptFiles {
        var files = KeptFiles()
        for source in sources { if let spool = source.spoolPath { files.ownCopies.append(spool) } }
        do {
            for (position, source) in sources.enumerated() {
                let kept = try source.keep(in: directory)
                if kept.isOwnCopy { files.ownCopies.append(kept.path) }
                files.uploads.append(OutboxUpload(position: position, source: source, kept: kept))
            }
        } catch {
            files.discard()
            throw error
        }
        return files
    }

    /// The message and its kept files into the outbox (claimed by this process); on failure
    /// the copies go.
    package func queue(_ text: String, files: KeptFiles, to dialogID: DialogID) throws(Failure) -> OutboxEntry {
        do { return try service.enqueue(text, uploads: files.uploads, to: dialogID, owner: owner) } catch {
            files.discard()
            throw error
        }
    }

    /// How a message goes once its files are up.
    package enum Delivery {
        /// Over REST, here (`MessagingService.deliverViaREST`): `send` returns the message stored.
        case rest
        /// Handed on ready to send: to a chat engine, say, which sends it. What `hand` throws
        /// is noted on the entry, which waits in the outbox for `outbox flush`.
        case handOff((OutboxEntry) throws(Failure) -> Void)
    }

    /// What the caller hears of a message on its way: it is `queued` (before the first byte
    /// goes), each file's bytes (`progress`), and its files are all `uploaded` (before it is sent).
    package struct Steps {
        package var queued: (OutboxEntry) -> Void = { _ in }
        package var progress: (TransferUpdate) -> Void = { _ in }
        package var uploaded: (OutboxEntry) -> Void = { _ in }

        package init(queued: @escaping (OutboxEntry) -> Void = { _ in }, progress: @escaping (TransferUpdate) -> Void = { _ in },
                     uploaded: @escaping (OutboxEntry) -> Void = { _ in }) {
            self.queued = queued; self.progress = progress; self.uploaded = uploaded
        }
    }

    /// A message with kept files, the whole way (`send --attach`, the chat view's `/attach`):
    /// queued with its files, the files uploaded, then delivered. Returns the message the
    /// server stored (REST), or nil when it was handed off. On failure nothing was queued if
    /// `queued` was not heard; after it, the entry waits in the outbox with the reason noted,
    /// unless it can never go (invalid input, a refusal for good: it is gone).
    @discardableResult
    package func send(_ text: String, files: KeptFiles, to dialogID: DialogID, delivery: Delivery,
                      steps: Steps = Steps()) throws(Failure) -> CachedMessage? {
        let entry = try queue(text, files: files, to: dialogID)
        steps.queued(entry)
        return try send(entry, delivery: delivery, steps: steps)
    }

    /// An entry already queued (one an earlier run left with its files not all up): its
    /// remaining files uploaded, then delivered, as `send` does.
    @discardableResult
    package func send(_ entry: OutboxEntry, delivery: Delivery, steps: Steps = Steps()) throws(Failure) -> CachedMessage? {
        let ready = try upload(entry, progress: steps.progress)
        steps.uploaded(ready)
        switch delivery {
        case .handOff(let hand):
            do { try hand(ready) } catch {
                service.noteFailure(clientMessageID: ready.clientMessageID, owner: owner, error: error)
                throw error
            }
            return nil
        case .rest:
            do {
                return try service.deliverViaREST(clientMessageID: ready.clientMessageID, text: ready.text,
                                                  attachments: ready.attachments, dialogID: ready.dialogID)
            } catch {
                // Refused for good: already gone from the outbox.
                if case .invalidInput = error.kind { throw error }
                if !error.isPermanent { service.noteFailure(clientMessageID: ready.clientMessageID, owner: owner, error: error) }
                throw error
            }
        }
    }

    /// Uploads and completes what remains of the entry's files; returns it ready to send.
    /// `progress` hears each file's bytes. On failure the entry waits in the outbox with the
    /// reason noted, or leaves it when it can never go as queued (a file larger than the
    /// server takes: invalid input).
    package func upload(_ entry: OutboxEntry, progress: (TransferUpdate) -> Void = { _ in }) throws(Failure) -> OutboxEntry {
        do {
            return try OutboxUploader(service: service, owner: owner).finish(entry) { upload, bytes in
                progress(TransferUpdate(messageID: entry.clientMessageID, attachment: upload.position, direction: .upload,
                                        name: upload.name, done: bytes.bytes, total: bytes.total ?? upload.size))
            }
        } catch {
            if case .invalidInput = error.kind {
                _ = try? service.cache.discard(clientMessageID: entry.clientMessageID)
            } else {
                service.noteFailure(clientMessageID: entry.clientMessageID, owner: owner, error: error)
            }
            throw error
        }
    }
}
