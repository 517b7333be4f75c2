#if canImport(Glibc)
import Glibc
#endif
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
            let shown = TerminalText.sanitize(attachment.name ?? attachment.id ?? "attachment \(index + 1)", newlines: .asSpaces)
            guard let uid = attachment.id, DownloadTarget.isUID(uid) else {
                io.writeErr("chatctl: --download: \(shown) of message \(message.id) names no file to fetch\n")
                return nil
            }
            let name = SafeFileName.make(attachment.name, fallback: uid)
            // A name taken meanwhile (by another program) moves on to the next number.
            var number = 1
            while true {
                let path = freePath(for: name, from: &number)
                do {
                    try downloader.download(uid: uid, to: path, overwrite: false)
                    return path
                } catch let error as TransferError where error.kind == .invalidInput && Self.exists(path) && number < 1000 {
                    number += 1
                } catch {
                    io.writeErr("chatctl: --download: cannot save \(shown) of message \(message.id): \(error)\n")
                    return nil
                }
            }
        }
    }

    /// `DIR/NAME`, numbered from `number` on until neither it nor its `.part` exists.
    private func freePath(for name: String, from number: inout Int) -> String {
        while true {
            let path = directory == "/" ? "/" + SafeFileName.numbered(name, number) : "\(directory)/\(SafeFileName.numbered(name, number))"
            if !Self.exists(path) && !Self.exists(path + ".part") { return path }
            number += 1
        }
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}

@available(*, unavailable)
extension AttachmentSaver: Sendable {}
