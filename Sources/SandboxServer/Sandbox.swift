// The sandbox: REST (evhttp) and XMPP on one libevent loop, sharing one database; the
// storage endpoint of the content API (libmicrohttpd) on a thread of its own.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
internal import CEvent
import Synchronization

/// How much the sandbox writes to stderr.
package enum SandboxLogLevel: String, Sendable, CaseIterable {
    case debug, info, warning, error

    var level: SandboxLog.Level {
        switch self {
        case .debug: return .debug
        case .info: return .info
        case .warning: return .warning
        case .error: return .error
        }
    }
}

package struct SandboxOptions: Sendable {
    package var host = "127.0.0.1"
    package var apiPort = 0          // 0: pick a free port
    package var chatPort = 0         // 0: pick a free port
    /// XMPP with TLS from the first byte (`xmpps://`) on this port too; nil: none, 0: pick one.
    package var chatTLSPort: Int? = nil
    /// XMPP over WebSocket (RFC 7395) on this port too; nil: none, 0: pick one.
    package var webSocketPort: Int? = nil
    package var databasePath: String? = nil   // nil: in memory
    package var applicationId = 1
    package var authKey = "sandbox-auth-key"
    package var authSecret = "sandbox-auth-secret"
    package var accountKey = "sandbox-account-key"
    package var chatDomain = "localhost"
    package var tokenTTL: Double = 7200        // seconds, sliding
    package var tlsCertPath: String? = nil
    package var tlsKeyPath: String? = nil
    package var logLevel: SandboxLogLevel = .info
    /// Seconds an HTTP connection may sit idle or half-sent before it is dropped.
    package var httpTimeout: Double = 30
    /// Seconds an HTTP client has to send a whole request, from connecting or from the
    /// previous answer (slowloris; docs/protocol.md §2).
    package var requestTimeout: Double = 10
    /// Wrong passwords per user within a minute before logins are refused with 429 (REST)
    /// or `temporary-auth-failure` (SASL) until the minute has passed.
    package var passwordAttemptsPerMinute = PasswordAttempts.defaultLimit
    /// PBKDF2-HMAC-SHA256 rounds for new passwords (`--password-iterations`).
    package var passwordIterations = 10_000
    /// false: REST only, no XMPP listener, TLS identity or `caFile` (for testing the REST side alone).
    package var chatEnabled = true
    /// The storage endpoint's port (uploads and downloads, docs/protocol.md §8); 0: pick a free port.
    package var storagePort = 0
    /// The storage endpoint's address as clients are told it (upload policies, download
    /// redirects), when they reach it through something in between (a proxy); nil: its own.
    package var storagePublicURL: String?
    /// The largest file an upload may carry, in bytes (`--max-upload`).
    package var maximumUpload = 100 * 1024 * 1024
    /// Seconds an upload policy or a signed download URL stays valid.
    package var signedURLLifetime: Double = 3600
    /// Which web pages may use the REST API, the storage endpoint and the WebSocket port
    /// (`--cors-origin`, docs/protocol.md §10); any by default, as the sandbox listens on loopback.
    package var corsOrigins = CORSOrigins.any
    package init() {}
}

/// Why the sandbox could not start.
package struct SandboxError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

/// REST (libevent HTTP) and XMPP (libevent + expat + OpenSSL) on one event loop.
///
/// Everything but `stop()` belongs to the thread that calls `init` and `run`; `stop()` only
/// writes a byte to a self-pipe the loop watches, hence `@unchecked Sendable`.
/// (A pipe, not `event_active`: that needs libevent_pthreads, which the CEvent module does not link.)
package final class Sandbox: @unchecked Sendable {
    /// The pipe's write end; -1 once torn down, so a late `stop()` never writes to a reused fd.
    private let stopWriter = Mutex<Int32>(-1)
    private var stopReader: Int32 = -1

    private let options: SandboxOptions
    private let log: SandboxLog
    private var base: OpaquePointer?
    private let database: SandboxDatabase
    private let api: SandboxAPI
    private var rest: RESTServer?
    private var xmpp: XMPPServer?
    private var storage: StorageServer?
    private var tls: TLSIdentity?
    private var stopEvent: OpaquePointer?
    private var signalEvents: [OpaquePointer] = []
    /// Our private temp dir (`ca.pem`, the blobs) when there is no database file; removed on shutdown.
    private var scratch: ScratchDirectory?
    private let caFile: String?
    private let config: String

    package init(options: SandboxOptions) throws {
        signal(SIGPIPE, SIG_IGN)
        self.options = options
        log = SandboxLog(minimum: options.logLevel.level)
        guard let base = event_base_new() else { throw SandboxError("cannot create the event loop") }
        self.base = base
        var scratch: ScratchDirectory?
        var restServer: RESTServer?
        var storageServer: StorageServer?
        do {
            let database = try SandboxDatabase(path: options.databasePath, tokenTTL: options.tokenTTL)
            database.passwordAttempts = PasswordAttempts(limit: options.passwordAttemptsPerMinute, window: 60)
            database.passwordIterations = options.passwordIterations
            let api = SandboxAPI(database: database, credentials: ApplicationCredentials(
                applicationId: options.applicationId, authKey: options.authKey, authSecret: options.authSecret,
                accountKey: options.accountKey), chatDomain: options.chatDomain)
            let rest = try RESTServer(eventBase: base, host: options.host, port: options.apiPort,
                                      timeout: Int(options.httpTimeout.rounded(.up)), requestTimeout: options.requestTimeout,
                                      router: api.makeRouter(),
                                      cors: .restAPI(options.corsOrigins), log: log)
            log.log(.info, "cors: web pages from \(options.corsOrigins.summary) may call the sandbox")
            restServer = rest
            // Group commit: chat's writes of a loop turn in one transaction, committed before a
            // REST request is handled and at the end of the turn (docs/protocol.md §7).
            let turn = TurnCommit(eventBase: base, store: api.chat, log: log)
            rest.beforeEachRequest = { turn.finish() }
            // Blobs live beside the database file, or in a private temp dir with an in-memory one.
            let databaseFile = options.databasePath.flatMap { $0 == ":memory:" ? nil : Sandbox.absolutePath($0) }
            let directory: String
            if let databaseFile {
                directory = databaseFile + ".blobs"
            } else {
                let made = try ScratchDirectory.make(log: log)
                scratch = made
                directory = made.subdirectory("blobs")
            }
            let files = try BlobFiles.prepare(directory: directory)
            let signer = StorageSigner(secret: try api.blobs.storageSecret())
            let store = try StorageServer(host: options.host, port: options.storagePort,
                                          settings: StorageSettings(signer: signer, files: files,
                                                                    maximumUpload: options.maximumUpload,
                                                                    cors: .storage(options.corsOrigins), log: log),
                                          timeout: Int(options.httpTimeout.rounded(.up)))
            storageServer = store
            let storageURL = options.storagePublicURL ?? "http://\(Sandbox.urlHost(options.host)):\(store.boundPort)"
            api.blobStorage = StorageEndpoint(baseURL: storageURL, signer: signer, files: files,
                                              maximumUpload: options.maximumUpload, urlLifetime: options.signedURLLifetime)
            log.log(.info, "storage: \(storageURL), files in \(directory)")
            var chatEndpoints: [(String, JSONNode)] = []
            var caFile: String?
            if options.chatEnabled {
                let identity: TLSIdentity
                if let cert = options.tlsCertPath {
                    guard let key = options.tlsKeyPath else { throw SandboxError("--tls-cert needs --tls-key") }
                    identity = try TLSIdentity.load(certificatePath: cert, keyPath: key)
                    caFile = cert
                } else {
                    var names = ["localhost"]
                    if options.chatDomain != "localhost" { names.append(options.chatDomain) }
                    // Kept in the database: a restart on the same --db serves the same certificate.
                    identity = try database.keptTLSIdentity(dnsNames: names, ipAddresses: [options.host], log: log)
                    if let databaseFile {
                        caFile = try Sandbox.replaceFile(databaseFile + ".ca.pem", contents: identity.certificatePEM)
                    } else if let scratch {
                        caFile = try scratch.writeFile(named: "ca.pem", contents: identity.certificatePEM)
                    }
                }
                let server = try XMPPServer(eventBase: base, host: options.host, port: options.chatPort,
                                            domain: options.chatDomain, applicationId: options.applicationId,
                                            tls: identity, authenticator: database, log: log, store: api.chat, turn: turn)
                let host = Sandbox.urlHost(options.host)
                chatEndpoints.append(("chat", .string("xmpp://\(host):\(server.boundPort)")))
                if let port = options.chatTLSPort {
                    let bound = try server.listenForDirectTLS(host: options.host, port: port)
                    chatEndpoints.append(("chatDirectTLS", .string("xmpps://\(host):\(bound)")))
                }
                if let port = options.webSocketPort {
                    let bound = try server.listenForWebSockets(host: options.host, port: port, origins: options.corsOrigins)
                    chatEndpoints.append(("chatWebSocket", .string("ws://\(host):\(bound)")))
                }
                // Kept only once every listener is up: a failure above releases the server before the loop.
                api.liveDelivery = server
                tls = identity
                xmpp = server
            }
            // endpoints.chat stays the STARTTLS one, which every chatctl config names; the
            // other listeners get keys of their own (docs/protocol.md §1).
            let apiEndpoint = "http://\(Sandbox.urlHost(options.host)):\(rest.boundPort)"
            let chatEndpoint = chatEndpoints.first { $0.0 == "chat" }.flatMap { endpoint -> String? in
                if case .string(let url) = endpoint.1 { return url }
                return nil
            }
            api.accountEndpoints = AccountEndpoints(api: apiEndpoint, chat: chatEndpoint)
            let endpoints: [(String, JSONNode)] = [("api", .string(apiEndpoint))] + chatEndpoints
            var members: [(String, JSONNode)] = [
                ("appId", .int(options.applicationId)),
                ("authKey", .string(options.authKey)),
                ("authSecret", .string(options.authSecret)),
                ("accountKey", .string(options.accountKey)),
                ("endpoints", .object(endpoints)),
                ("chatDomain", .string(options.chatDomain)),
            ]
            if let caFile { members.append(("caFile", .string(caFile))) }
            self.database = database
            self.api = api
            self.caFile = caFile
            config = JSONNode.object(members).serialized
        } catch {
            storageServer?.close()
            scratch?.remove()
            restServer?.close()
            // Its request hook holds the turn's event, which must go before the loop does.
            restServer = nil
            event_base_free(base)
            if let error = error as? SandboxError { throw error }
            throw SandboxError("\(error)")
        }
        rest = restServer
        storage = storageServer
        self.scratch = scratch
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            tearDown()
            throw SandboxError("cannot create the stop pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            evutil_make_socket_nonblocking(fd)
            evutil_make_socket_closeonexec(fd)
        }
        stopReader = fds[0]
        stopWriter.withLock { $0 = fds[1] }
        stopEvent = event_new(base, fds[0], Int16(EV_READ), { _, _, arg in
            guard let arg else { return }
            Unmanaged<Sandbox>.fromOpaque(arg).takeUnretainedValue().finishOnLoop()
        }, Unmanaged.passUnretained(self).toOpaque())
        if let stopEvent { event_add(stopEvent, nil) }
    }

    deinit { tearDown() }

    /// The one-line JSON chatctl config for this sandbox (what the binary prints on stdout).
    package var configLine: String { config }

    /// Runs the event loop until stop() or SIGINT/SIGTERM (when installSignalHandlers).
    package func run(installSignalHandlers: Bool) {
        guard let base else { return }
        if installSignalHandlers {
            // A parent may spawn us from a thread that blocks these (libdispatch workers do); unblock them.
            var mask = sigset_t()
            sigemptyset(&mask)
            sigaddset(&mask, SIGINT)
            sigaddset(&mask, SIGTERM)
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
            for number in [SIGINT, SIGTERM] {
                guard let event = event_new(base, number, Int16(EV_SIGNAL | EV_PERSIST), { signal, _, arg in
                    guard let arg else { return }
                    let sandbox = Unmanaged<Sandbox>.fromOpaque(arg).takeUnretainedValue()
                    sandbox.log.log(.info, "signal \(signal): shutting down")
                    sandbox.finishOnLoop()
                }, Unmanaged.passUnretained(self).toOpaque()) else { continue }
                event_add(event, nil)
                signalEvents.append(event)
            }
        }
        log.log(.info, "listening: \(config)")
        event_base_dispatch(base)
        tearDown()
    }

    /// Thread-safe: asks the loop to finish, closing every connection.
    package func stop() {
        stopWriter.withLock { fd in
            guard fd >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
        }
    }

    /// On the loop thread: close the chat streams, then leave the loop.
    private func finishOnLoop() {
        xmpp?.stop()
        if let base { event_base_loopbreak(base) }
    }

    /// Frees every libevent object and removes our temp files. Idempotent.
    private func tearDown() {
        for event in signalEvents { event_free(event) }
        signalEvents = []
        if let stopEvent { event_free(stopEvent) }
        stopEvent = nil
        stopWriter.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
        if stopReader >= 0 { close(stopReader) }
        stopReader = -1
        xmpp = nil
        rest?.close()
        rest = nil
        // Its thread ends every transfer (an upload cut short leaves no file) before the files go.
        storage?.close()
        storage = nil
        scratch?.remove()
        scratch = nil
        if let base { event_base_free(base) }
        base = nil
    }

    private static func urlHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// `path` made absolute against the working directory, so the config line names files
    /// that a client started elsewhere finds.
    private static func absolutePath(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    /// Writes `contents` to `file` (0600) through a rename, so a reader never sees half of it;
    /// left alone when it already holds exactly that. Returns `file`.
    private static func replaceFile(_ file: String, contents: String) throws -> String {
        if let current = try? String(contentsOfFile: file, encoding: .utf8), current == contents { return file }
        let temporary = file + ".new-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SandboxError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, file) == 0 else {
            unlink(temporary)
            throw SandboxError("cannot write \(file): \(String(cString: strerror(errno)))")
        }
        return file
    }
}
