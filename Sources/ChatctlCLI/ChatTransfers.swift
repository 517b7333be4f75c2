#if canImport(Glibc)
import Glibc
#endif
import ChatView
import Messaging
import Transfers

/// Files for the chat view, one at a time on a thread of their own (a large file must
/// not hold up messages): downloads into the current directory under the sender's
/// name made safe, never over a file that exists, through `BlobDownloader` (a
/// `.part` that resumes, then renamed into place). Progress goes to the view at most
/// ten times a second.
final class ChatTransfers {
    enum Command: Sendable {
        case download(messageID: String, attachment: Int, uid: String, name: String)
        case stop
    }

    typealias Handle = ChatWorkQueue<Command>

    private let session: MessagingSession
    private let inbox: ChatInbox
    private let handle: Handle
    private let wake: WakeSignal

    private init(session: MessagingSession, inbox: ChatInbox, handle: Handle, wake: WakeSignal) {
        self.session = session; self.inbox = inbox; self.handle = handle; self.wake = wake
    }

    /// Starts the worker, which owns `session` from now on. Post a command, then `wake` it.
    static func start(session: MessagingSession, inbox: ChatInbox) -> (Handle, WakeSignal) {
        let handle = Handle()
        let wake = WakeSignal()
        let worker = UncheckedTransfer(ChatTransfers(session: session, inbox: inbox, handle: handle, wake: wake))
        DetachedThread.start { worker.value.run() }
        return (handle, wake)
    }

    private func run() {
        defer { handle.finish() }
        while true {
            wake.wait()
            for command in handle.take() {
                switch command {
                case .stop:
                    return
                case .download(let messageID, let index, let uid, let name):
                    download(messageID: messageID, index: index, uid: uid, name: name)
                }
            }
        }
    }

    private func download(messageID: String, index: Int, uid: String, name: String) {
        let path = Self.freeName(SafeFileName.make(name, fallback: uid))
        var shown = Transfer(direction: .download)
        var lastPosted = ContinuousClock.now - .seconds(1)
        inbox.post(.transfer(messageID: messageID, attachment: index, shown, localPath: nil))
        do {
            try BlobDownloader(api: session.service.api).download(uid: uid, to: path, overwrite: false) { progress in
                shown.done = progress.bytes
                shown.total = progress.total
                guard ContinuousClock.now - lastPosted >= .milliseconds(100) else { return }
                lastPosted = .now
                inbox.post(.transfer(messageID: messageID, attachment: index, shown, localPath: nil))
            }
            shown.outcome = ""
            if let total = shown.total { shown.done = total }
            inbox.post([.transfer(messageID: messageID, attachment: index, shown, localPath: "./" + path),
                        .notice("saved \(path)")])
        } catch {
            shown.outcome = TerminalText.sanitize(error.description, keepNewlines: false)
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
}

@available(*, unavailable)
extension ChatTransfers: Sendable {}

/// Wakes a worker that has nothing to do: a counting semaphore.
final class WakeSignal: Sendable {
    private let semaphore = UncheckedTransfer(UnsafeMutablePointer<sem_t>.allocate(capacity: 1))

    init() { sem_init(semaphore.value, 0, 0) }

    deinit {
        sem_destroy(semaphore.value)
        semaphore.value.deallocate()
    }

    func signal() { sem_post(semaphore.value) }

    func wait() {
        while sem_wait(semaphore.value) != 0 && errno == EINTR {}
    }
}
