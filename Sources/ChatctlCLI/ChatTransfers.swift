#if canImport(Glibc)
import Glibc
#endif
import ChatView
import MessageCache
import Messaging
import Transfers

/// Files for the chat view, one at a time on a thread of their own (a large file must
/// not hold up messages). `/attach PATH`: the file is opened, judged and kept, queued
/// in the outbox with its message, uploaded and completed (`OutboxUploader`, every
/// step recorded, as `send --attach` does), then the network thread sends the
/// message. `d`: a download into the current directory under the sender's name made
/// safe, never over a file that exists (`BlobDownloader`: a `.part` that resumes).
/// Progress goes to the view at most ten times a second.
final class ChatTransfers {
    enum Command: Sendable {
        /// Into the current directory under its name, or into `directory` under its uid (a preview's copy).
        case download(messageID: String, attachment: Int, uid: String, name: String, directory: String?)
        case attach(path: String, dialogID: String)
        /// An outbox entry whose files are not all up (an earlier attempt failed): finish and send it.
        case finish(clientID: String)
        case stop
    }

    /// Commands, and the signal that wakes the worker for them.
    final class Handle: Sendable {
        let queue = ChatWorkQueue<Command>()
        let wake = WakeSignal()

        func post(_ command: Command) {
            queue.post(command)
            wake.signal()
        }
    }

    private let session: MessagingSession
    private var service: MessagingService { session.service }
    private let inbox: ChatInbox
    private let handle: Handle
    private let backend: ChatBackend.Handle
    /// Where the outbox keeps the files of messages waiting to be sent.
    private let outboxDirectory: String
    private let owner = Int(getpid())

    private init(session: MessagingSession, inbox: ChatInbox, handle: Handle, backend: ChatBackend.Handle, outboxDirectory: String) {
        self.session = session; self.inbox = inbox; self.handle = handle; self.backend = backend; self.outboxDirectory = outboxDirectory
    }

    /// Starts the worker on `handle`, which owns `session` from now on.
    static func start(_ handle: Handle, session: MessagingSession, inbox: ChatInbox, backend: ChatBackend.Handle, outboxDirectory: String) {
        let worker = UncheckedTransfer(ChatTransfers(session: session, inbox: inbox, handle: handle, backend: backend,
                                                     outboxDirectory: outboxDirectory))
        DetachedThread.start { worker.value.run() }
    }

    private func run() {
        defer { handle.queue.finish() }
        while true {
            handle.wake.wait()
            for command in handle.queue.take() {
                switch command {
                case .stop:
                    return
                case .download(let messageID, let index, let uid, let name, let directory):
                    download(messageID: messageID, index: index, uid: uid, name: name, directory: directory)
                case .attach(let path, let dialogID):
                    attach(path, dialogID: dialogID)
                case .finish(let clientID):
                    guard let entry = try? service.pendingOutbox().first(where: { $0.clientMessageID == clientID }) else { continue }
                    upload(entry)
                }
            }
        }
    }

    // MARK: attach

    private func attach(_ path: String, dialogID: String) {
        var path = path
        if path.hasPrefix("~/"), let home = getenv("HOME") { path = String(cString: home) + path.dropFirst(1) }
        let upload: OutboxUpload
        do {
            let source = try UploadSource.file(at: path, name: nil, sniffer: try ContentSniffer(), spoolDirectory: outboxDirectory,
                                               keepingSpool: true)
            upload = OutboxUpload(position: 0, source: source, kept: try source.keep(in: outboxDirectory))
        } catch {
            inbox.post(.notice("cannot attach \(TerminalText.sanitize(path, newlines: .asSpaces)): \(clean(error.description))"))
            return
        }
        let entry: OutboxEntry
        do { entry = try service.enqueue("", uploads: [upload], to: dialogID, owner: owner) } catch {
            inbox.post(.notice("cannot queue the file: \(clean(error.message))"))
            return
        }
        pendingChanged(dialogID, uploading: entry.clientMessageID)
        self.upload(entry)
    }

    /// The entry's files up and completed, then its message to the network thread.
    private func upload(_ entry: OutboxEntry) {
        let id = entry.clientMessageID
        var lastPosted = ContinuousClock.now - .seconds(1)
        do {
            let ready = try OutboxUploader(service: service, owner: owner).finish(entry) { upload, progress in
                guard ContinuousClock.now - lastPosted >= .milliseconds(100) || progress.bytes == progress.total else { return }
                lastPosted = .now
                let shown = Transfer(direction: .upload, done: progress.bytes, total: progress.total ?? upload.size)
                inbox.post(.transfer(messageID: id, attachment: upload.position, shown, localPath: nil))
            }
            for upload in ready.uploads {
                // The file named to /attach is on this machine: its preview needs no download.
                let local = upload.source != "-" && access(upload.source, R_OK) == 0 ? upload.source : nil
                inbox.post(.transfer(messageID: id, attachment: upload.position,
                                     Transfer(direction: .upload, done: upload.size, total: upload.size, outcome: ""), localPath: local))
            }
            backend.post(.deliver(clientID: id, dialogID: entry.dialogID))
        } catch {
            if case .invalidInput = error.kind {
                // Too large for the server, say: it can never go as queued.
                _ = try? service.cache.discard(clientMessageID: id)
            } else {
                service.noteFailure(clientMessageID: id, owner: owner, error: error)
            }
            inbox.post(.notice("the file was not sent: \(clean(error.message))"))
            pendingChanged(entry.dialogID, uploading: nil)
        }
    }

    private func pendingChanged(_ dialogID: String, uploading: String?) {
        let entries = ((try? service.pendingOutbox()) ?? []).filter { $0.dialogID == dialogID }
        inbox.post(.pendingChanged(dialogID: dialogID, entries.map {
            ChatViewRecords.pending($0, me: service.me, inFlight: uploading.map { [$0] } ?? [])
        }))
    }

    // MARK: download

    private func download(messageID: String, index: Int, uid: String, name: String, directory: String?) {
        let path = directory.map { "\($0)/\(SafeFileName.make(uid, fallback: "file"))" } ?? Self.freeName(SafeFileName.make(name, fallback: uid))
        // Into a directory: only for the preview (`d` saves into the working directory).
        let direction: Transfer.Direction = directory == nil ? .download : .preview
        if directory != nil, DownloadCommand.exists(path) {
            // Fetched for a preview before: the copy is here.
            inbox.post(.transfer(messageID: messageID, attachment: index, Transfer(direction: direction, outcome: ""), localPath: path))
            return
        }
        var shown = Transfer(direction: direction)
        var lastPosted = ContinuousClock.now - .seconds(1)
        inbox.post(.transfer(messageID: messageID, attachment: index, shown, localPath: nil))
        do {
            try BlobDownloader(api: service.api).download(uid: uid, to: path, overwrite: false) { progress in
                shown.done = progress.bytes
                shown.total = progress.total
                guard ContinuousClock.now - lastPosted >= .milliseconds(100) else { return }
                lastPosted = .now
                inbox.post(.transfer(messageID: messageID, attachment: index, shown, localPath: nil))
            }
            shown.outcome = ""
            if let total = shown.total { shown.done = total }
            if directory != nil {
                inbox.post(.transfer(messageID: messageID, attachment: index, shown, localPath: path))
            } else {
                inbox.post([.transfer(messageID: messageID, attachment: index, shown, localPath: "./" + path), .notice("saved \(path)")])
            }
        } catch {
            shown.outcome = clean(error.description)
            inbox.post(.transfer(messageID: messageID, attachment: index, shown, localPath: nil))
        }
    }

    /// `name`, else `name-2`, `name-3`…: the first that names no file here. (A
    /// `.part` of that name is the downloader's to resume, or to start over.)
    static func freeName(_ name: String) -> String {
        var taken: Set<String> = []
        var candidate = DownloadCommand.unique(name, taken: &taken)
        while DownloadCommand.exists(candidate) { candidate = DownloadCommand.unique(name, taken: &taken) }
        return candidate
    }

    private func clean(_ text: String) -> String { TerminalText.sanitize(text, newlines: .asSpaces) }
}

@available(*, unavailable)
extension ChatTransfers: Sendable {}
