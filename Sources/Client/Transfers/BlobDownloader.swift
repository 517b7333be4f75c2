#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import HTTPTransport
import QuickBloxAPI

/// Fetches a blob by its uid (docs/protocol.md §8): `GET /blobs/{uid}.json` with
/// the token, then the storage URL it redirects to, without it. Into a file, the
/// bytes go to `{path}.part` first, which an interrupted download leaves for the
/// next one to resume with `Range`; the finished file is renamed into place.
package final class BlobDownloader {
    package let api: QuickBloxClient
    /// Attempts in one run while each gets further than the last.
    package var attempts = 3
    /// Bytes before a resume point fetched again and compared, so that a `.part`
    /// another file left under the same name is not continued with this one.
    static let verifiedOverlap = 64 * 1024

    package init(api: QuickBloxClient) { self.api = api }

    /// Saves blob `uid` as `path`; a file already at `path` is replaced only with
    /// `overwrite`. Returns the file's size.
    @discardableResult
    package func download(uid: String, to path: String, overwrite: Bool, mode: mode_t = 0o666,
                         progress: (TransferProgress) -> Void = { _ in }) throws(Failure) -> Int64 {
        if !overwrite, Self.exists(path) {
            throw Failure(.invalidInput, "\(path) exists", hint: "give --force to replace it")
        }
        let part = try PartialFile(finalPath: path, mode: mode)
        var attempt = 0
        while true {
            attempt += 1
            let offset = try part.resumeOffset()
            do {
                let size = try fetch(uid: uid, into: DownloadSink(fileDescriptor: part.fileDescriptor, description: part.partPath),
                                     resumeFrom: offset, progress: progress)
                try part.finish(overwrite: overwrite)
                return size
            } catch {
                // A transfer cut short resumes at once while it keeps getting further.
                let grown = ((try? part.resumeOffset()) ?? offset) > offset
                guard error.kind == .temporary, grown, attempt < attempts else {
                    throw keepingPart(error, part: part)
                }
            }
        }
    }

    /// Writes blob `uid` to an open descriptor (standard output): no resume.
    @discardableResult
    package func download(uid: String, into fileDescriptor: Int32, description: String,
                         progress: (TransferProgress) -> Void = { _ in }) throws(Failure) -> Int64 {
        try fetch(uid: uid, into: DownloadSink(fileDescriptor: fileDescriptor, description: description), resumeFrom: 0, progress: progress)
    }

    private func fetch(uid: String, into sink: DownloadSink, resumeFrom: Int64,
                       progress: (TransferProgress) -> Void) throws(Failure) -> Int64 {
        let location: String
        do { location = try api.blobLocation(uid: uid) } catch {
            throw Self.refusal(error, uid: uid, doing: "download \(uid)")
        }
        do {
            return try api.downloadBlobFile(from: location, into: sink, resumeFrom: resumeFrom,
                                            verifiedOverlap: Self.verifiedOverlap, progress: progress)
        } catch {
            if case .transport(.localFile) = error.kind {
                throw Failure(.failure, "download \(uid): \(error.reasons.joined(separator: "; "))")
            }
            throw Self.refusal(error, uid: uid, doing: "download \(uid)")
        }
    }

    /// 404: no such blob (bad input); 403: not ours to read.
    static func refusal(_ error: QuickBloxError, uid: String, doing what: String) -> Failure {
        let reason = error.reasons.joined(separator: "; ")
        switch error.status {
        case 404:
            return Failure(.invalidInput, "\(what): there is no file with uid \(uid) (\(reason))")
        case 403:
            return Failure(.failure, "\(what): not allowed to read it (\(reason))",
                                 hint: "only its owner and the occupants of a dialog it was sent to may")
        default:
            return Failure(describing: error, doing: what)
        }
    }

    /// An error of a download into a file says where its bytes wait.
    private func keepingPart(_ error: Failure, part: PartialFile) -> Failure {
        let held = (try? part.resumeOffset()) ?? 0
        guard held > 0 else {
            // Nothing to resume: leave nothing behind.
            _ = unlink(part.partPath)
            return error
        }
        var kept = error
        switch error.kind {
        case .temporary, .failure:
            kept.hint = "\(held) bytes are kept in \(part.partPath); the same command resumes from there"
        default:
            break
        }
        return kept
    }

    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}

@available(*, unavailable)
extension BlobDownloader: Sendable {}
