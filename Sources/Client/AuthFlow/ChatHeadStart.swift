import Dispatch
import Synchronization
import ClientConfiguration
import Threads
import XMPPTransport

/// The chat half of `chatctl login` with a head start (docs/protocol.md §7): `prepare()` starts
/// a thread of its own (a `WorkerThread`) that connects and sets TLS up while the REST calls
/// run, and waits there for the user's id and token; `connect(userId:secret:)` hands them over
/// and waits for the session. The connection stays on that thread: libstrophe's calls block, and a context is used by one thread only. A login has
/// no use for it once it is up, so that thread closes it at once, while the caller saves the
/// session and prints; this object going waits for that goodbye, or cancels the connect when
/// the login never got that far.
package final class ChatHeadStart: ChatConnecting {
    /// What the login tells the connecting thread.
    enum Word: Sendable {
        case credentials(ChatCredentials)
        /// The login is over (with or without the credentials).
        case finish
    }

    private let config: ClientConfig
    private let verboseLog: (@Sendable (String) -> Void)?
    private let outcome = Outcome()
    private let cancellation = ChatConnectCancellation()
    private var worker: WorkerThread<Word>?
    /// Used instead of a thread when none can be started: the connect then runs in `connect`.
    private var inline: ChatConnector?

    package init(config: ClientConfig, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.config = config; self.verboseLog = verboseLog
    }

    package func prepare() {
        guard worker == nil, inline == nil else { return }
        // Here, not on the new thread: there it would wait for whatever this one loads next (libcurl).
        XMPPConnection.prepareLibrary()
        let options = config.chatConnectOptions(verboseLog: verboseLog)
        let (domain, endpoint) = (config.chatDomain, config.chatEndpoint)
        let (outcome, cancellation) = (outcome, cancellation)
        worker = WorkerThread<Word>.start { words in
            let connection = XMPPConnection()
            var credentials: ChatCredentials?
            var finished = false
            /// Waits for the login's next word; the credentials once given (a fresh connect asks again).
            func listen() {
                words.wait()
                for word in words.take() {
                    switch word {
                    case .credentials(let given): credentials = given
                    case .finish: finished = true
                    }
                }
            }
            do throws(XMPPError) {
                try connection.connect(domain: domain, endpoint: endpoint, options: options, cancellation: cancellation) {
                    while credentials == nil && !finished { listen() }
                    return finished ? nil : credentials
                }
                outcome.report(.success(()))
            } catch {
                outcome.report(.failure(error))
            }
            // The goodbye (our </stream:stream>, the server's, TLS close_notify) overlaps the
            // caller's saving and printing instead of following them.
            if connection.isConnected { connection.disconnect(timeout: 1) }
            while !finished { listen() }
        }
        if worker == nil { inline = ChatConnector(config: config, verboseLog: verboseLog) }
    }

    package func connect(userId: Int, secret: String) throws(XMPPError) {
        prepare()
        if let inline { return try inline.connect(userId: userId, secret: secret) }
        worker?.post(.credentials(ChatCredentials(jid: config.chatJID(userId: userId), password: secret)))
        try outcome.wait().get()
    }

    deinit {
        // A connect still waiting for credentials, or in a TLS handshake, ends at once.
        if !outcome.isReported { cancellation.cancel() }
        worker?.post(.finish)
        worker?.join(seconds: 30)
    }

    /// The connect's result, handed from the connecting thread to the login's once.
    private final class Outcome: Sendable {
        private let result = Mutex<Result<Void, XMPPError>?>(nil)
        private let ready = DispatchSemaphore(value: 0)

        var isReported: Bool { result.withLock { $0 != nil } }

        func report(_ outcome: Result<Void, XMPPError>) {
            result.withLock { $0 = outcome }
            ready.signal()
        }

        func wait() -> Result<Void, XMPPError> {
            ready.wait()
            ready.signal()
            return result.withLock { $0 } ?? .failure(XMPPError(kind: .disconnected, endpoint: "", detail: "no outcome"))
        }
    }
}
