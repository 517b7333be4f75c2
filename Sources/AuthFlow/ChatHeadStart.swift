#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import ClientConfiguration
import XMPPTransport

/// The chat half of `chatctl login` with a head start (docs/protocol.md §7): `prepare()` starts
/// a thread of its own that connects and sets TLS up while the REST calls run, and waits there
/// for the user's id and token; `connect(userId:secret:)` hands them over and waits for the
/// session. The connection stays on that thread (house rule 4). A login has no use for it once
/// it is up, so that thread closes it at once, while the caller saves the session and prints;
/// this object going waits for that goodbye, or cancels the connect when the login never got
/// that far.
package final class ChatHeadStart: ChatConnecting {
    private let config: ClientConfig
    private let verboseLog: (@Sendable (String) -> Void)?
    private let mailbox = Mailbox()
    private var thread: pthread_t?
    /// Used instead of a thread when none can be started: the connect then runs in `connect`.
    private var inline: ChatConnector?

    package init(config: ClientConfig, verboseLog: (@Sendable (String) -> Void)? = nil) {
        self.config = config; self.verboseLog = verboseLog
    }

    package func prepare() {
        guard thread == nil, inline == nil else { return }
        // Here, not on the new thread: there it would wait for whatever this one loads next (libcurl).
        XMPPConnection.prepareLibrary()
        let job = Job(config: config, verboseLog: verboseLog, mailbox: mailbox)
        let context = Unmanaged.passRetained(job)
        var id = pthread_t()
        guard pthread_create(&id, nil, { argument in
            Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, context.toOpaque()) == 0 else {
            context.release()
            inline = ChatConnector(config: config, verboseLog: verboseLog)
            return
        }
        thread = id
    }

    package func connect(userId: Int, secret: String) throws(XMPPError) {
        prepare()
        if let inline { return try inline.connect(userId: userId, secret: secret) }
        mailbox.provide(ChatCredentials(jid: config.chatJID(userId: userId), password: secret))
        try mailbox.outcome().get()
    }

    deinit {
        mailbox.finish()
        if let thread { pthread_join(thread, nil) }
    }

    /// What the thread runs: the connect, then the wait for the end, then the goodbye.
    private final class Job: Sendable {
        let config: ClientConfig
        let verboseLog: (@Sendable (String) -> Void)?
        let mailbox: Mailbox
        init(config: ClientConfig, verboseLog: (@Sendable (String) -> Void)?, mailbox: Mailbox) {
            self.config = config; self.verboseLog = verboseLog; self.mailbox = mailbox
        }

        func run() {
            let connection = XMPPConnection()
            let options = config.chatConnectOptions(verboseLog: verboseLog)
            let mailbox = mailbox
            do throws(XMPPError) {
                try connection.connect(domain: config.chatDomain, endpoint: config.chatEndpoint, options: options,
                                       cancellation: mailbox.cancellation) { mailbox.credentials() }
                mailbox.report(.success(()))
            } catch {
                mailbox.report(.failure(error))
            }
            // The goodbye (our </stream:stream>, the server's, TLS close_notify) overlaps the
            // caller's saving and printing instead of following them.
            if connection.isConnected { connection.disconnect(timeout: 1) }
            mailbox.waitForFinish()
        }
    }

    /// What the two threads hand each other, each hand-over once.
    private final class Mailbox: Sendable {
        private struct State {
            var credentials: ChatCredentials?
            var outcome: Result<Void, XMPPError>?
            var finished = false
        }
        private let state = Mutex(State())
        private let credentialsReady = DispatchSemaphore(value: 0)
        private let outcomeReady = DispatchSemaphore(value: 0)
        private let finishing = DispatchSemaphore(value: 0)
        let cancellation = ChatConnectCancellation()

        func provide(_ credentials: ChatCredentials) {
            state.withLock { $0.credentials = credentials }
            credentialsReady.signal()
        }

        /// On the connecting thread: the credentials once given, nil once the login is over without them.
        func credentials() -> ChatCredentials? {
            credentialsReady.wait()
            credentialsReady.signal()  // a second ask (a fresh connect) gets the same answer
            return state.withLock { $0.finished ? nil : $0.credentials }
        }

        func report(_ outcome: Result<Void, XMPPError>) {
            state.withLock { $0.outcome = outcome }
            outcomeReady.signal()
        }

        func outcome() -> Result<Void, XMPPError> {
            outcomeReady.wait()
            return state.withLock { $0.outcome ?? .failure(XMPPError(kind: .disconnected, endpoint: "", detail: "no outcome")) }
        }

        /// The login is over: a connect still waiting for credentials is cancelled, a connected one closed.
        func finish() {
            let pending = state.withLock { state -> Bool in
                state.finished = true
                return state.outcome == nil
            }
            if pending { cancellation.cancel() }
            credentialsReady.signal()
            finishing.signal()
        }

        func waitForFinish() { finishing.wait() }
    }
}
