#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import MessageCache
import Messaging
import QuickBloxAPI
import Transfers

/// `listen --download DIR`: each attachment of a message saved into DIR as the
/// message arrives, under the name its sender gave it made safe (`SafeFileName`),
/// never over a file that is there: `cat.jpg`, then `cat-2.jpg`, `cat-3.jpg`.
/// A file that cannot be saved is one line on stderr; listening goes on.
final class AttachmentSaver {
    /// As the user gave it: the saved paths are printed in its terms.
    let directory: String
    private let downloader: BlobDownloader
    private let io: any TerminalIO

    init(directory: String, api: QuickBloxClient, io: any TerminalIO) {
        var directory = directory
        while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        self.directory = directory
        downloader = BlobDownloader(api: api)
        self.io = io
    }

    /// Saves the message's attachments; the path of each, nil for one that failed.
    func save(_ message: CachedMessage) -> [String?] {
        message.attachments.enumerated().map { index, attachment -> String? in
            let shown = attachment.name ?? attachment.id ?? "attachment \(index + 1)"
            guard let uid = attachment.id, DownloadTarget.isUID(uid) else {
                io.warn("--download: \(shown) of message \(message.id) names no file to fetch")
                return nil
            }
            do { return try downloader.save(uid: uid, name: attachment.name, in: directory) } catch {
                io.warn("--download: cannot save \(shown) of message \(message.id): \(error)")
                return nil
            }
        }
    }
}

@available(*, unavailable)
extension AttachmentSaver: Sendable {}
