#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import MessageCache
import Messaging
import Presentation
import QuickBloxAPI
import Transfers

/// What `export` does with a message's files: with `--attachments DIR` each is saved
/// there as `listen --download` saves it (`BlobDownloader.save`: the sender's name made
/// safe, never over a file that is there) and linked; for HTML, an image up to the
/// inline limit is also put in the page as a `data:` URI (fetched into a scratch file
/// when it is not saved), its type judged from its bytes. One image is held at a time.
/// A file that cannot be fetched is one line on stderr; the export goes on.
final class ExportAttachmentFiles {
    /// Where files are saved, as given; nil: nowhere.
    let directory: String?
    /// `directory` as the export links to it (relative to the export's own directory).
    let linkDirectory: String?
    /// Images up to this size are inlined; nil: none (not HTML).
    let inlineLimit: Int?
    /// Nil offline: nothing is fetched.
    private let downloader: BlobDownloader?
    private let io: any TerminalIO
    private var sniffer: ContentSniffer?
    private var scratch: String?
    /// Files saved, and files that could not be fetched.
    private(set) var savedCount = 0
    private(set) var failedCount = 0

    /// Where a scratch directory for images not saved is made (`$TMPDIR`).
    private let scratchBase: String

    /// `api`: nil offline.
    init(directory: String?, linkDirectory: String?, inlineLimit: Int?, api: QuickBloxClient?, scratchBase: String, io: any TerminalIO) {
        self.directory = directory.map { var d = $0; while d.count > 1 && d.hasSuffix("/") { d.removeLast() }; return d }
        self.scratchBase = scratchBase
        self.linkDirectory = linkDirectory
        self.inlineLimit = inlineLimit
        downloader = api.map(BlobDownloader.init)
        self.io = io
    }

    deinit {
        if let scratch { rmdir(scratch) }
    }

    /// The message's attachments with where each went.
    func files(of message: CachedMessage) -> [ExportedAttachment] {
        guard !message.attachmentsJSON.isEmpty else { return [] }
        return message.attachments.map { file(of: $0, in: message) }
    }

    private func file(of attachment: QBAttachment, in message: CachedMessage) -> ExportedAttachment {
        var item = ExportedAttachment(attachment)
        let mayInline = inlineLimit.map { $0 > 0 && Self.mayBeImage(attachment) } ?? false
        guard directory != nil || mayInline else {
            item.note = "not saved (export with --attachments DIR to save it)"
            return item
        }
        guard let downloader else {
            item.note = "not fetched (exported with --offline)"
            return item
        }
        guard let uid = attachment.id, DownloadTarget.isUID(uid) else {
            item.note = "names no file to fetch"
            return item
        }
        let shown = TerminalText.sanitize(item.shownName, newlines: .asSpaces)
        if let directory {
            do {
                let path = try downloader.save(uid: uid, name: attachment.name, in: directory)
                savedCount += 1
                item.savedPath = linkDirectory.map { $0 == "." ? "" : $0 + "/" }.map { $0 + RelativePath.name(of: path) } ?? path
                if mayInline { item.inline = inline(path, note: &item.note) }
            } catch {
                failedCount += 1
                io.warn("export: cannot save \(shown) of message \(message.id): \(error)")
                item.note = "could not be downloaded"
            }
            return item
        }
        // An image for the page only: known to be too large, or fetched into a scratch file.
        if let size = attachment.size, let limit = inlineLimit, size > limit {
            item.note = "over the inline limit of \(AttachmentLabel.byteCount(limit)) (export with --attachments DIR to save it)"
            return item
        }
        do {
            let path = try scratchDirectory() + "/\(uid)"
            defer { unlink(path); unlink(path + ".part") } // a failed fetch leaves its part
            try downloader.download(uid: uid, to: path, overwrite: true)
            item.inline = inline(path, note: &item.note)
            if item.inline == nil && item.note == nil { item.note = "not saved (export with --attachments DIR to save it)" }
        } catch {
            failedCount += 1
            io.warn("export: cannot fetch \(shown) of message \(message.id): \(error)")
            item.note = "could not be downloaded"
        }
        return item
    }

    /// An image's bytes for the page when the file is one and within the limit; else a note says why not.
    private func inline(_ path: String, note: inout String?) -> ExportedAttachment.Inline? {
        guard let limit = inlineLimit else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard Int(info.st_size) <= limit else {
            note = "over the inline limit of \(AttachmentLabel.byteCount(limit))"
            return nil
        }
        guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
        // The sender's content type is their word; the page says what the bytes are.
        if sniffer == nil { sniffer = try? ContentSniffer() }
        let sniffed = sniffer.map { sniffer in bytes.prefix(ContentSniffer.sniffLength).withUnsafeBytes { sniffer.mimeType(of: $0) } }
        guard let type = sniffed.flatMap({ ExportedAttachment.imageMediaType(QBAttachment(contentType: $0)) }) else {
            note = "not an image the page can show"
            return nil
        }
        return ExportedAttachment.Inline(mediaType: type, base64: bytes.base64EncodedString())
    }

    /// An image by its content type, or by the type its sender gave it.
    static func mayBeImage(_ attachment: QBAttachment) -> Bool {
        ExportedAttachment.imageMediaType(attachment) != nil || attachment.type?.lowercased() == "image"
    }

    private func scratchDirectory() throws(Failure) -> String {
        if let scratch { return scratch }
        let base = scratchBase
        var template = Array((base + "/chatctl-export-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(.failure, "cannot make a scratch directory in \(base): \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        scratch = path
        return path
    }
}

@available(*, unavailable)
extension ExportAttachmentFiles: Sendable {}
