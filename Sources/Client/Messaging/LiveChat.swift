#if canImport(Glibc)
import Glibc
#endif
import ChatIdentifiers
import Diagnostics
import Dispatch
import HTTPTransport
import MessageCache
import Synchronization
import Threads
import Transfers

/// A chat engine on a thread of its own, with a second thread for files, for the chat view
/// (docs/architecture.md, "Threads"): the engine's thread owns the connection and runs
/// `ChatEngine.run`; the files' thread uploads and downloads (a large file must not hold up
/// messages) and hands finished entries to the engine. Each owns its own messaging service
/// and cache connection (SQLite in WAL mode). Both tell their events to one `Sendable` sink,
/// from their own threads. The only surface to other threads is this handle.
package final class LiveChat: Sendable {
    /// What the files' thread does.
    package enum FileCommand: Sendable, Equatable {
        /// Keeps, queues, uploads and then sends a file (`/attach PATH`).
        case attach(path: String, dialogID: DialogID)
        /// Saves an attachment: into the current directory under its name, or into
        /// `directory` under its uid (a preview's copy).
        case download(messageID: String, attachment: Int, uid: String, name: String, directory: String?)
        /// An outbox entry whose files are not all up: finished, then sent.
        case finish(clientID: String)
        case stop
        /// Fetches a user's avatar into `directory` (once: it is kept there), told as `.avatar`.
        case avatar(userID: Int, directory: String)
    }

    private let engine: WorkerThread<ChatEngine.Command>
    private let files: WorkerThread<FileCommand>

    /// Starts both threads. `network` and `transfers` are handed over (each used by its
    /// thread alone from now on); the engine's thread makes its link with `makeLink`, from
    /// its own service. Nil when no thread can be started.
    package init?(network: Handover<MessagingService>, transfers: Handover<MessagingService>,
                  makeLink: @escaping @Sendable (MessagingService) -> any ChatLinking,
                  settings: ChatEngine.Settings, outboxDirectory: String,
                  events: @escaping @Sendable (ChatEngineEvent) -> Void) {
        // The files' thread needs the engine's handle (to send what it finished), and the
        // engine's the files' (to finish what it cannot send yet): the engine waits for it.
        let filesHandle = Mutex<WorkerThread<FileCommand>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        guard let engine = WorkerThread<ChatEngine.Command>.start({ worker in
            ready.wait()
            guard let files = filesHandle.withLock({ $0 }) else { return }
            let engine = ChatEngine(link: makeLink(network.value), service: network.value, settings: settings, handler: events)
            engine.worker = worker
            engine.uploadsElsewhere = { entry in files.post(.finish(clientID: entry.clientMessageID)) }
            do throws(Failure) { try engine.run() } catch {
                events(.connection(.gaveUp(error)))
            }
        }) else { return nil }
        guard let files = WorkerThread<FileCommand>.start({ worker in
            FileLane(service: transfers.value, outboxDirectory: outboxDirectory, engine: engine, events: events).run(worker)
        }) else {
            ready.signal()
            engine.join(seconds: 1)
            return nil
        }
        filesHandle.withLock { $0 = files }
        ready.signal()
        self.engine = engine
        self.files = files
    }

    /// A command for the engine, carried out between turns of its connection.
    package func post(_ command: ChatEngine.Command) { engine.post(command) }

    /// A command for the files' thread.
    package func post(_ command: FileCommand) { files.post(command) }

    /// Stops both; waits at most `seconds` for the engine (its last markers and read marks).
    package func stop(waiting seconds: Double) {
        files.post(.stop)
        engine.post(.stop)
        engine.join(seconds: seconds)
        files.join(seconds: 0)
    }
}

/// The files' thread of a `LiveChat`: the attach pipeline, the finishing of entries the
/// outbox holds, downloads. Progress is told at most ten times a second.
private final class FileLane {
    let service: MessagingService
    let outboxDirectory: String
    let engine: WorkerThread<ChatEngine.Command>
    let events: @Sendable (ChatEngineEvent) -> Void
    let owner = Int(getpid())

    init(service: MessagingService, outboxDirectory: String, engine: WorkerThread<ChatEngine.Command>,
         events: @escaping @Sendable (ChatEngineEvent) -> Void) {
        self.service = service; self.outboxDirectory = outboxDirectory; self.engine = engine; self.events = events
    }

    var pipeline: AttachPipeline { AttachPipeline(service: service, owner: owner) }

    func run(_ worker: WorkerThread<LiveChat.FileCommand>) {
        while true {
            worker.wait()
            for command in worker.take() {
                switch command {
                case .stop:
                    return
                case .attach(let path, let dialogID):
                    attach(path, dialogID: dialogID)
                case .finish(let clientID):
                    guard let entry = try? service.outboxEntry(clientMessageID: clientID) else { continue }
                    upload(entry)
                case .download(let messageID, let attachment, let uid, let name, let directory):
                    download(messageID: messageID, attachment: attachment, uid: uid, name: name, directory: directory)
                case .avatar(let userID, let directory):
                    // No picture, or none to be had now: the view keeps the initials.
                    events(.avatar(userID: userID, path: try? service.avatarFile(of: userID, in: directory)))
                }
            }
        }
    }

    // MARK: attach

    private func attach(_ path: String, dialogID: DialogID) {
        var path = path
        if path.hasPrefix("~/"), let home = getenv("HOME") { path = String(cString: home) + path.dropFirst(1) }
        let files: AttachPipeline.KeptFiles
        do {
            let source = try UploadSource.at(path, name: nil, spoolDirectory: outboxDirectory, keepingSpool: true)
            files = try AttachPipeline.keep([source], in: outboxDirectory)
        } catch {
            events(.notice(.failed(.attach(path: path), error)))
            return
        }
        var queued: OutboxEntry?
        var steps = self.steps
        steps.queued = { [self] entry in
            queued = entry
            outboxChanged(dialogID, uploading: entry.clientMessageID)
        }
        do { try pipeline.send("", files: files, to: dialogID, delivery: handOff, steps: steps) } catch {
            guard let queued else { return events(.notice(.failed(.queueFile, error))) }
            uploadFailed(queued, error)
        }
    }

    /// An entry whose files are not all up: finished, then its message to the engine.
    private func upload(_ entry: OutboxEntry) {
        do { try pipeline.send(entry, delivery: handOff, steps: steps) } catch {
            uploadFailed(entry, error)
        }
    }

    /// Each file's progress told (at most ten times a second), and once all are up, each
    /// file's end with where it is on this machine (its preview needs no download).
    private var steps: AttachPipeline.Steps {
        var lastTold = ContinuousClock.now - .seconds(1)
        return AttachPipeline.Steps(progress: { [events] update in
            guard ContinuousClock.now - lastTold >= .milliseconds(100) || update.done == update.total else { return }
            lastTold = .now
            events(.transfer(update))
        }, uploaded: { [events] ready in
            for upload in ready.uploads {
                let local = upload.source != "-" && access(upload.source, R_OK) == 0 ? upload.source : nil
                events(.transfer(TransferUpdate(messageID: ready.clientMessageID, attachment: upload.position, direction: .upload,
                                                name: upload.name, done: upload.size, total: upload.size, outcome: .succeeded,
                                                localPath: local)))
            }
        })
    }

    /// A ready message goes to the engine's thread, which sends it.
    private var handOff: AttachPipeline.Delivery {
        .handOff { [engine] ready in engine.post(.deliver(clientID: ready.clientMessageID, dialogID: ready.dialogID)) }
    }

    private func uploadFailed(_ entry: OutboxEntry, _ error: Failure) {
        events(.notice(.failed(.uploadFile, error)))
        outboxChanged(entry.dialogID, uploading: nil)
    }

    private func outboxChanged(_ dialogID: DialogID, uploading: String?) {
        let entries = (try? service.pendingOutbox(dialogID: dialogID)) ?? []
        events(.outbox(dialogID: dialogID, entries, inFlight: uploading.map { [$0] } ?? []))
    }

    // MARK: download

    private func download(messageID: String, attachment: Int, uid: String, name: String, directory: String?) {
        let direction: TransferUpdate.Direction = directory == nil ? .download : .preview
        var shown = TransferUpdate(messageID: messageID, attachment: attachment, direction: direction, name: name)
        let downloader = BlobDownloader(api: service.api)
        if let directory {
            // A preview's copy, under its uid: fetched before, it is here.
            let path = "\(directory)/\(SafeFileName.make(uid, fallback: "file"))"
            if BlobDownloader.exists(path) {
                shown.outcome = .succeeded
                shown.localPath = path
                return events(.transfer(shown))
            }
        }
        var lastTold = ContinuousClock.now - .seconds(1)
        events(.transfer(shown))
        do {
            let progress: (TransferProgress) -> Void = { [events] bytes in
                shown.done = bytes.bytes
                shown.total = bytes.total
                guard ContinuousClock.now - lastTold >= .milliseconds(100) else { return }
                lastTold = .now
                events(.transfer(shown))
            }
            let path: String
            if let directory {
                path = "\(directory)/\(SafeFileName.make(uid, fallback: "file"))"
                try downloader.download(uid: uid, to: path, overwrite: false, progress: progress)
            } else {
                path = try downloader.save(uid: uid, name: name, in: ".", progress: progress)
            }
            shown.outcome = .succeeded
            if let total = shown.total { shown.done = total }
            shown.localPath = path
            events(.transfer(shown))
            if directory == nil { events(.notice(.saved(path: String(path.dropFirst(2))))) }
        } catch {
            shown.outcome = .failed(error.description)
            events(.transfer(shown))
        }
    }
}

@available(*, unavailable)
extension FileLane: Sendable {}
