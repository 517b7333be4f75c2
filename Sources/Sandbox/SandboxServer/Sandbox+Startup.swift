// How a sandbox starts: one builder per part, in the order the parts need each other
// (storage, REST, the storage endpoint, chat with its listeners, the config line).
import SandboxBlobEndpoint
import SandboxHTTP
import SandboxJSON
import SandboxLogging
import SandboxNetwork
import SandboxREST
import SandboxStorage
import SandboxXMPP

extension Sandbox {
    /// The database, in a file or in memory, with the login limits of `options`.
    static func openDatabase(_ options: SandboxOptions) throws -> SandboxDatabase {
        let database = try SandboxDatabase(path: options.databasePath, tokenTTL: options.tokenTTL)
        // Loopback is limited per user only: a test suite's clients all share it (docs/protocol.md §4).
        database.passwordAttempts = PasswordAttempts(limit: options.passwordAttemptsPerMinute, window: 60,
                                                     addressLimit: options.passwordAttemptsPerAddressPerMinute,
                                                     exempting: PeerAddress.isLoopback)
        database.passwordIterations = options.passwordIterations
        return database
    }

    /// The REST API, listening on the loop, and the group commit of chat's writes: one
    /// transaction per turn of the loop, committed before a REST request is handled and at
    /// the end of the turn (docs/protocol.md §7).
    static func startREST(_ options: SandboxOptions, loop: EventLoop, database: SandboxDatabase, tls: TLSIdentity?,
                          log: SandboxLog) throws -> (api: SandboxAPI, server: HTTPServer, turn: TurnCommit) {
        let api = SandboxAPI(database: database, credentials: ApplicationCredentials(
            applicationId: options.applicationId, authKey: options.authKey, authSecret: options.authSecret,
            accountKey: options.accountKey), chatDomain: options.chatDomain)
        api.notice = { log.log(.info, $0) }
        let service = RESTService(router: api.makeRouter(), cors: .restAPI(options.corsOrigins), log: log)
        let server = try HTTPServer(loop: loop, name: "REST", host: options.host, port: options.apiPort,
                                    timeout: Int(options.httpTimeout.rounded(.up)), requestTimeout: options.requestTimeout,
                                    maximumBodySize: RESTService.maximumBodySize, maximumHeadersSize: RESTService.maximumHeadersSize,
                                    defaultContentType: "application/json", tls: tls, refusalHeaders: LibraryRefusal.headers,
                                    maximumWaiting: pendingCaps(options), log: log, service: service.answer)
        log.log(.info, "cors: web pages from \(options.corsOrigins.summary) may call the sandbox")
        let turn = TurnCommit(loop: loop, store: api.chat, log: log)
        service.beforeEachRequest = { turn.finish() }
        return (api, server, turn)
    }

    /// The storage endpoint of the content API (docs/protocol.md §8) on a thread of its own,
    /// its files in `directory`; the API learns how to reach it.
    static func startStorageEndpoint(_ options: SandboxOptions, api: SandboxAPI, directory: String, tls: TLSIdentity?,
                                     log: SandboxLog) throws -> StorageServer {
        let files = try BlobFiles.prepare(directory: directory)
        let signer = StorageSigner(secret: try api.blobs.storageSecret())
        let (socket, port) = try ListeningAddress.listeningSocket(for: "storage", host: options.host, port: options.storagePort)
        var settings = StorageSettings(signer: signer, files: files, maximumUpload: options.maximumUpload,
                                       cors: .storage(options.corsOrigins), log: log)
        // A successful upload's Location (S3's PostResponse) names the scheme clients reached it by.
        if tls != nil { settings.locationScheme = "https" }
        settings.maximumWaiting = pendingCaps(options)
        let server = try StorageServer(listeningSocket: socket, host: options.host, port: port,
                                       settings: settings,
                                       timeout: Int(options.httpTimeout.rounded(.up)),
                                       tls: try tls.map { TLSCredentials(certificatePEM: $0.certificatePEM, keyPEM: try $0.privateKeyPEM()) })
        let scheme = tls == nil ? "http" : "https"
        let endpoint = StorageEndpoint(baseURL: options.storagePublicURL ?? "\(scheme)://\(urlHost(options.host)):\(server.boundPort)",
                                       signer: signer, maximumUpload: options.maximumUpload, urlLifetime: options.signedURLLifetime)
        api.blobStorage = StorageEndpointAccess(uploadURL: endpoint.uploadURL(blobId:key:contentType:isPublic:now:),
                                                downloadURL: endpoint.downloadURL(key:contentType:now:),
                                                isKey: BlobFiles.isValidKey, storedSize: files.size(of:), remove: files.remove,
                                                store: { key, bytes in
                                                    switch files.store(key, bytes: bytes) {
                                                    case .stored: return .stored
                                                    case .noSpace: return .noSpace
                                                    case .failed(let why):
                                                        log.log(.error, "storage: cannot keep a custom object's file: \(why)")
                                                        return .failed
                                                    }
                                                },
                                                maximumUpload: options.maximumUpload, urlLifetime: endpoint.urlLifetime)
        log.log(.info, "storage: \(endpoint.baseURL), files in \(directory)")
        return server
    }

    /// What chat adds to a sandbox: its server and what the config line says of it.
    struct Chat {
        var server: XMPPServer
        /// The config's `endpoints` keys and URLs, STARTTLS's (`chat`) first.
        var endpoints: [(key: String, url: String)]
    }

    /// The identity chat's TLS and `--https` serve: given (`--tls-cert`), or made once and kept
    /// in the database; and the certificate file clients are told to trust (the config's `caFile`).
    static func tlsIdentity(_ options: SandboxOptions, database: SandboxDatabase, files: SandboxFiles,
                            log: SandboxLog) throws -> (identity: TLSIdentity, caFile: String?) {
        if let cert = options.tlsCertPath {
            guard let key = options.tlsKeyPath else { throw SandboxFailure("--tls-cert needs --tls-key") }
            return (try TLSIdentity.load(certificatePath: cert, keyPath: key), cert)
        }
        var names = ["localhost"]
        if options.chatDomain != "localhost" { names.append(options.chatDomain) }
        // Kept in the database: a restart on the same --db serves the same certificate.
        let identity = try database.keptTLSIdentity(dnsNames: names, ipAddresses: [options.host], log: log)
        return (identity, try files.keepCertificate(identity.certificatePEM))
    }

    /// Chat: the XMPP server on the loop with its STARTTLS listener (TLS with `identity`), and
    /// the direct-TLS and WebSocket ones asked for.
    static func startChat(_ options: SandboxOptions, loop: EventLoop, database: SandboxDatabase, api: SandboxAPI,
                          turn: TurnCommit, identity: TLSIdentity, log: SandboxLog) throws -> Chat {
        var limits = XMPPServer.Limits()
        limits.maxUnauthenticatedPerAddress = options.maximumPendingPerAddress
        limits.preAuthTimeout = options.authTimeout
        let server = try XMPPServer(loop: loop, host: options.host, port: options.chatPort, domain: options.chatDomain,
                                    applicationId: options.applicationId, tls: identity, authenticator: database, log: log,
                                    limits: limits, store: api.chat, turn: turn)
        let host = urlHost(options.host)
        var endpoints = [(key: "chat", url: "xmpp://\(host):\(server.boundPort)")]
        if let port = options.chatTLSPort {
            let bound = try server.listenForDirectTLS(host: options.host, port: port)
            endpoints.append((key: "chatDirectTLS", url: "xmpps://\(host):\(bound)"))
        }
        if let port = options.webSocketPort {
            let bound = try server.listenForWebSockets(host: options.host, port: port, origins: options.corsOrigins, secure: options.https)
            endpoints.append((key: "chatWebSocket", url: "\(options.https ? "wss" : "ws")://\(host):\(bound)"))
        }
        // Only once every listener is up: a failure above releases the server before the loop.
        api.liveDelivery = { [weak server] message, dialog in server?.deliver(message, in: dialog) }
        api.occupantsRemoved = { [weak server] dialogId, users, actor in server?.removeFromRoom(dialogId, users: users, by: actor) }
        return Chat(server: server, endpoints: endpoints)
    }

    /// The one-line JSON chatctl config: credentials, endpoints, chat domain, CA file.
    static func configLine(_ options: SandboxOptions, apiURL: String, chatEndpoints: [(key: String, url: String)],
                           caFile: String?) -> String {
        let endpoints: [(String, JSONNode)] = [("api", .string(apiURL))] + chatEndpoints.map { ($0.key, .string($0.url)) }
        var members: [(String, JSONNode)] = [
            ("appId", .int(options.applicationId)),
            ("authKey", .string(options.authKey)),
            ("authSecret", .string(options.authSecret)),
            ("accountKey", .string(options.accountKey)),
            ("endpoints", .object(endpoints)),
            ("chatDomain", .string(options.chatDomain)),
        ]
        if let caFile { members.append(("caFile", .string(caFile))) }
        return JSONNode.object(members).serialized
    }

    /// Connections waiting for a request an HTTP port keeps per address, and in all: the
    /// overall cap stays well under the descriptors a process gets by default (1024).
    static func pendingCaps(_ options: SandboxOptions) -> (perAddress: Int, overall: Int) {
        (options.maximumPendingPerAddress, max(options.maximumPendingPerAddress, 512))
    }

    static func urlHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}
