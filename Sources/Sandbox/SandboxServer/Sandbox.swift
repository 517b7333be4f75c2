// The sandbox: REST (evhttp) and XMPP on one libevent loop, sharing one database; the
// storage endpoint of the content API (libmicrohttpd) on a thread of its own. This module
// only puts them together (`Sandbox+Startup.swift`) and runs the loop.
#if canImport(Glibc)
import Glibc
#endif
import SandboxBlobEndpoint
import SandboxLogging
import SandboxNetwork
import SandboxREST
import SandboxXMPP
import Threads

/// REST, XMPP and the storage endpoint, started by `init` and served by `run` until stopped.
///
/// Everything belongs to the thread that calls `init` and `run`; another thread stops it
/// through `stopHandle` (`Sendable`), which only writes a byte to a pipe the loop watches.
package final class Sandbox {
    /// The one-line JSON chatctl config for this sandbox (what the binary prints on stdout).
    package let configLine: String
    /// Off loopback, the line that says the credentials were made at random (for stderr).
    package let credentialNotice: String?
    /// How another thread (or a signal's) asks the loop to finish.
    package let stopHandle: SandboxStopHandle
    private let log: SandboxLog
    private var loop: EventLoop?
    /// The REST routes hold the API unowned: it lives as long as the sandbox.
    private let api: SandboxAPI
    private var rest: HTTPServer?
    private var xmpp: XMPPServer?
    private var pushSchedule: PushSchedule?
    private var storageEndpoint: StorageServer?
    /// Our private temp dir (`ca.pem`, the blobs) when there is no database file; removed on shutdown.
    private var scratch: ScratchDirectory?
    private var stopReader: Int32
    private var stopEvent: LoopEvent?
    /// SIGINT and SIGTERM, caught the package's one way (a byte on a pipe) and read by the
    /// loop as any descriptor: libevent's own signal events would install handlers of their own.
    private var signals: SignalPipe?
    private var signalEvent: LoopEvent?

    package init(options: SandboxOptions) throws(SandboxFailure) {
        log = SandboxLog(minimum: options.logLevel.level)
        let loop = try EventLoop()
        var files: SandboxFiles?
        var storageEndpoint: StorageServer?
        do {
            let database = try Self.openDatabase(options)
            // From here on, the credentials served (off loopback: random unless given).
            let (options, notice) = try Self.servingCredentials(options, database: database)
            credentialNotice = notice
            let madeFiles = try SandboxFiles(databasePath: options.databasePath, log: log)
            files = madeFiles
            let tls = options.chatEnabled || options.https
                ? try Self.tlsIdentity(options, database: database, files: madeFiles, log: log) : nil
            let https = options.https ? tls?.identity : nil
            let (api, rest, turn) = try Self.startREST(options, loop: loop, database: database, tls: https, log: log)
            storageEndpoint = try Self.startStorageEndpoint(options, api: api, directory: madeFiles.blobDirectory, tls: https, log: log)
            var chat: Chat?
            if options.chatEnabled, let tls {
                chat = try Self.startChat(options, loop: loop, database: database, api: api, turn: turn, identity: tls.identity, log: log)
            }
            let apiURL = "\(https == nil ? "http" : "https")://\(Self.urlHost(options.host)):\(rest.boundPort)"
            // endpoints.chat stays the STARTTLS one, which every chatctl config names; the
            // other listeners get keys of their own (docs/protocol.md §1).
            api.accountEndpoints = AccountEndpoints(api: apiURL, chat: chat?.endpoints.first { $0.key == "chat" }?.url,
                                                    chatDomain: options.chatDomain)
            configLine = Self.configLine(options, apiURL: apiURL, chatEndpoints: chat?.endpoints ?? [], caFile: tls?.caFile)
            self.api = api
            self.rest = rest
            xmpp = chat?.server
            pushSchedule = PushSchedule(loop: loop, api: api, turn: turn)
        } catch {
            storageEndpoint?.close()
            files?.scratch?.remove()
            if let error = error as? SandboxFailure { throw error }
            throw SandboxFailure("\(error)")
        }
        self.loop = loop
        self.storageEndpoint = storageEndpoint
        scratch = files?.scratch
        let stop = WakePipe.make()
        stopReader = stop?.readEnd ?? -1
        stopHandle = SandboxStopHandle(writer: stop?.writeEnd ?? -1)
        guard let stop else {
            tearDown()
            throw SandboxFailure("cannot create the stop pipe: \(String(cString: strerror(errno)))")
        }
        stopEvent = LoopEvent(loop: loop, .readable(descriptor: stop.readEnd, persistent: false)) { [unowned self] in self.finishOnLoop() }
    }

    deinit { tearDown() }

    /// Runs the event loop until stopped (`stopHandle`), or SIGINT/SIGTERM when `installSignalHandlers`.
    package func run(installSignalHandlers: Bool) {
        guard let loop else { return }
        // The pipe unblocks what it catches: a parent may spawn us from a thread that blocks them (libdispatch workers do).
        if installSignalHandlers, let signals = SignalPipe(catching: [SIGINT, SIGTERM], restarting: true) {
            self.signals = signals
            signalEvent = LoopEvent(loop: loop, .readable(descriptor: signals.readEnd, persistent: true)) { [unowned self] in
                guard let number = signals.take().first else { return }
                self.log.log(.info, "signal \(number): shutting down")
                self.finishOnLoop()
            }
        }
        log.log(.info, "listening: \(configLine)")
        pushSchedule?.deliver()
        loop.run()
        tearDown()
    }

    /// On the loop thread: close the chat streams, then leave the loop.
    private func finishOnLoop() {
        xmpp?.stop()
        loop?.stop()
    }

    /// Frees every libevent object and removes our temp files. Idempotent.
    private func tearDown() {
        signalEvent = nil
        signals = nil
        stopEvent = nil
        stopHandle.close()
        if stopReader >= 0 { close(stopReader) }
        stopReader = -1
        xmpp = nil
        rest?.close()
        rest = nil
        pushSchedule = nil
        // Its thread ends every transfer (an upload cut short leaves no file) before the files go.
        storageEndpoint?.close()
        storageEndpoint = nil
        scratch?.remove()
        scratch = nil
        loop = nil
    }
}

@available(*, unavailable) extension Sandbox: Sendable {}
