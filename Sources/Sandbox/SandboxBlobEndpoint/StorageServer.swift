// The storage service behind the content API (docs/protocol.md §8): multipart uploads
// checked against their policy, and signed downloads with ranges. Every libmicrohttpd
// call lives here.
internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif
import SandboxClock
import SandboxHTTP
import SandboxLogging
import Synchronization

/// What the storage thread needs, all immutable: it never touches SQLite (which stays
/// on the event loop's thread), only the signer's secret, the clock and the files.
package struct StorageSettings: Sendable {
    var signer: StorageSigner
    var files: BlobFiles
    /// `--max-upload`: no file larger than this is kept, whatever its policy says.
    var maximumUpload: Int
    /// The Access-Control-* headers of every answer, and the answer to a preflight.
    var cors = CORSPolicy.storage(.any)
    var now: @Sendable () -> Double = { SandboxTime.now() }
    var log: SandboxLog
    /// The scheme of the `Location` a successful upload answers (`https` when clients reach
    /// the storage over TLS).
    package var locationScheme = "http"
    /// Connections one address (and all together) may keep waiting for a request; past it the
    /// oldest waiting one is dropped, not the newcomer (docs/protocol.md §8).
    package var maximumWaiting: (perAddress: Int, overall: Int) = (32, 512)

    package init(signer: StorageSigner, files: BlobFiles, maximumUpload: Int, cors: CORSPolicy = .storage(.any), log: SandboxLog) {
        self.signer = signer
        self.files = files
        self.maximumUpload = maximumUpload
        self.cors = cors
        self.log = log
    }
}

/// libmicrohttpd on its own polling thread (it streams request bodies, which libevent
/// 2.1's evhttp cannot). Create and close it on the event loop's thread; requests are
/// served on libmicrohttpd's thread by a `StorageRequestHandler`.
package final class StorageServer {
    /// The port actually bound (after asking for 0).
    package let boundPort: Int
    private var daemon: OpaquePointer?       // struct MHD_Daemon*
    private let handler: StorageRequestHandler
    /// The key and certificate with TLS: libmicrohttpd keeps the pointers, not copies.
    private var tlsStrings: [UnsafeMutablePointer<CChar>] = []

    /// `socket`: listening on `host`, port `bound` (libmicrohttpd owns it from now on, and
    /// closes it when stopped); `timeout`: seconds a connection may sit idle before it is dropped;
    /// `tls`: serve HTTPS (libmicrohttpd's GnuTLS) with this certificate and key.
    package init(listeningSocket socket: Int32, host: String, port bound: Int, settings: StorageSettings,
                 timeout: Int, tls: TLSCredentials? = nil) throws(SandboxFailure) {
        handler = StorageRequestHandler(settings: settings)
        let me = Unmanaged.passUnretained(handler).toOpaque()
        // The read buffer lives in the per-connection pool: 256 KiB keeps a gigabyte upload cheap in calls.
        let started: OpaquePointer?
        var strings: [UnsafeMutablePointer<CChar>] = []
        if let tls {
            strings = [strdup(tls.keyPEM)!, strdup(tls.certificatePEM)!]
            started = sandbox_mhd_start_tls(socket, storageAccessHandler, me, storageRequestCompleted, me,
                                            storageConnectionNotice, me, UInt32(max(1, timeout)), 256 * 1024, strings[0], strings[1])
        } else {
            started = sandbox_mhd_start(socket, storageAccessHandler, me, storageRequestCompleted, me,
                                        storageConnectionNotice, me, UInt32(max(1, timeout)), 256 * 1024)
        }
        guard let daemon = started else {
            Glibc.close(socket)
            strings.forEach { free($0) }
            throw SandboxFailure("cannot start the storage endpoint on \(host):\(bound)\(tls == nil ? "" : " with TLS")")
        }
        self.daemon = daemon
        tlsStrings = strings
        boundPort = bound
    }

    deinit { close() }

    /// Stops serving: waits for libmicrohttpd's thread, which ends every connection
    /// (an upload cut short leaves no file). Idempotent.
    package func close() {
        guard let daemon else { return }
        self.daemon = nil
        MHD_stop_daemon(daemon)
        tlsStrings.forEach { free($0) }
        tlsStrings = []
    }
}

@available(*, unavailable) extension StorageServer: Sendable {}

/// Serves requests on libmicrohttpd's thread from immutable settings.
final class StorageRequestHandler: Sendable {
    /// Headroom over `--max-upload` for the form's other fields and its boundaries.
    static let formOverhead = 1 << 20
    let settings: StorageSettings
    /// Connections waiting for a request. libmicrohttpd calls us on its one thread; the lock
    /// only makes that visible to the compiler.
    let waiting: Mutex<WaitingConnections>

    init(settings: StorageSettings) {
        self.settings = settings
        waiting = Mutex(WaitingConnections(perAddress: settings.maximumWaiting.perAddress, overall: settings.maximumWaiting.overall))
    }

    /// A connection opened (`socket` from `address`), or answered and kept alive: it waits for
    /// a request, as the youngest. The oldest past the cap have their sockets shut down, which
    /// libmicrohttpd then closes as a vanished client.
    fileprivate func connectionWaits(_ connection: OpaquePointer, socket: Int32? = nil) {
        let key = Int(bitPattern: UnsafeRawPointer(connection))
        let (evicted, address, toLog): ([Int32], String?, Int?) = waiting.withLock { state in
            if let socket { state.open(key, socket: socket) }
            return (state.waits(key), state.address(of: key), state.droppedToLog)
        }
        for socket in evicted { shutdown(socket, Int32(SHUT_RDWR)) }
        if let dropped = toLog {
            settings.log.log(.warning, "storage: \(address ?? "?") has \(settings.maximumWaiting.perAddress) connections waiting for a request; dropping the oldest for a new one (\(dropped) so far)")
        }
    }

    /// A request's headers arrived: the connection is busy until it is answered.
    fileprivate func connectionBusy(_ connection: OpaquePointer) {
        let key = Int(bitPattern: UnsafeRawPointer(connection))
        waiting.withLock { $0.busy(key) }
    }

    fileprivate func connectionClosed(_ connection: OpaquePointer) {
        let key = Int(bitPattern: UnsafeRawPointer(connection))
        waiting.withLock { $0.close(key) }
    }

    /// One call of the access handler: the headers (first call, `exchange` new), a piece
    /// of the body, or the end of the body.
    fileprivate func handle(_ connection: OpaquePointer, path: String, method: String,
                            data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
                            exchange: StorageExchange, isFirstCall: Bool) -> MHD_Result {
        if isFirstCall {
            connectionBusy(connection)
            let origin = Self.header(connection, "Origin")
            exchange.corsHeaders = settings.cors.responseHeaders(origin: origin).map { ($0.name, $0.value) }
            switch method {
            case "OPTIONS":
                // A browser's preflight (docs/protocol.md §10), answered once the request is complete.
                exchange.preflight = settings.cors.preflight(
                    origin: origin, privateNetwork: Self.header(connection, "Access-Control-Request-Private-Network")?.lowercased() == "true")
                return MHD_Result.YES
            case "GET", "HEAD":
                // Answered once the request is complete, so that the connection may be kept
                // alive (an answer queued with the headers closes it).
                exchange.isDownload = true
                return MHD_Result.YES
            case "POST" where Self.isUploadPath(path): return startUpload(connection, exchange: exchange)
            case "POST": return exchange.respond(connection, .notFound)
            default: return exchange.respond(connection, .methodNotAllowed)
            }
        }
        if exchange.hasResponded { return MHD_Result.YES }
        if let answer = exchange.preflight {
            guard size.pointee == 0 else {
                size.pointee = 0   // a body on an OPTIONS means nothing
                return MHD_Result.YES
            }
            exchange.corsHeaders = []
            let headers = answer.headers.map { ($0.name, $0.value) }
            if let refusal = answer.refusal {
                settings.log.log(.info, "storage: preflight refused: \(refusal)")
                return exchange.respond(connection, .corsForbidden, headers: headers)
            }
            return exchange.respond(connection, status: answer.status, headers: headers)
        }
        if exchange.isDownload {
            guard size.pointee == 0 else {
                size.pointee = 0   // a body on a GET means nothing
                return MHD_Result.YES
            }
            return download(connection, path: path, exchange: exchange)
        }
        guard let receiver = exchange.receiver else { return MHD_Result.NO }
        if size.pointee > 0 {
            exchange.bodyBytes += size.pointee
            // A body with no length (chunked) that goes on past any allowed upload: hang up.
            guard exchange.bodyBytes <= settings.maximumUpload + Self.formOverhead else {
                settings.log.log(.info, "storage: upload of \(exchange.bodyBytes) bytes and more cut off")
                return MHD_Result.NO
            }
            if receiver.failure == nil, let processor = exchange.postProcessor,
               MHD_post_process(processor, data, size.pointee) == MHD_Result.NO {
                receiver.fail(.malformedForm)
            }
            size.pointee = 0
            return MHD_Result.YES
        }
        // The whole body has arrived.
        if let processor = exchange.postProcessor {
            exchange.postProcessor = nil
            if MHD_destroy_post_processor(processor) == MHD_Result.NO { receiver.fail(.malformedForm) }
        }
        do throws(StorageError) {
            let status = try receiver.finish()
            settings.log.log(.info, "storage: stored \(receiver.key ?? "?") (\(receiver.storedBytes) bytes)")
            let etag = receiver.etag.map { [("ETag", $0)] } ?? []
            guard status == 201, let key = receiver.key else { return exchange.respond(connection, status: status, headers: etag) }
            // S3 answers `success_action_status` 201 with a PostResponse document; 200 and 204 with nothing.
            let posted = PostResponse(location: "\(settings.locationScheme)://\(Self.header(connection, "Host") ?? "localhost")"
                                          + StorageSigner.downloadPrefix + key,
                                      bucket: PostResponse.bucket, key: key, etag: receiver.etag ?? "")
            return exchange.respond(connection, status: status, body: Array(posted.xml.utf8),
                                    headers: [("Content-Type", "application/xml")] + etag)
        } catch {
            settings.log.log(.info, "storage: upload refused: \(error.code): \(error.message)")
            return exchange.respond(connection, error)
        }
    }

    /// `POST /blobs/{id}/upload/` (the path the contract gives; the policy's key decides the object).
    static func isUploadPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        return parts.count == 3 && parts[0] == "blobs" && parts[2] == "upload"
            && !parts[1].isEmpty && parts[1].utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    private func startUpload(_ connection: OpaquePointer, exchange: StorageExchange) -> MHD_Result {
        let contentType = Self.header(connection, "Content-Type") ?? ""
        guard contentType.lowercased().hasPrefix("multipart/form-data") else {
            return exchange.respond(connection, .invalidArgument("Bucket POST must be of the enclosure-type multipart/form-data."))
        }
        if let length = Self.header(connection, "Content-Length").flatMap({ Int($0) }),
           length > settings.maximumUpload + Self.formOverhead {
            // Answered before the body is read: libmicrohttpd then reads none of it.
            return exchange.respond(connection, .entityTooLarge(maximum: settings.maximumUpload))
        }
        let receiver = UploadReceiver(signer: settings.signer, files: settings.files,
                                      maximumUpload: settings.maximumUpload, now: settings.now)
        exchange.receiver = receiver
        guard let processor = MHD_create_post_processor(connection, 64 * 1024, storageFormField,
                                                         Unmanaged.passUnretained(receiver).toOpaque()) else {
            return exchange.respond(connection, .malformedForm)
        }
        exchange.postProcessor = processor
        return MHD_Result.YES
    }

    private func download(_ connection: OpaquePointer, path: String, exchange: StorageExchange) -> MHD_Result {
        let grant: DownloadGrant
        do throws(StorageError) {
            grant = try settings.signer.checkDownload(path: path, query: Self.queryArguments(connection), now: settings.now())
        } catch {
            return exchange.respond(connection, error)
        }
        guard let (fd, size) = settings.files.openForReading(grant.key) else { return exchange.respond(connection, .noSuchKey) }
        let range = ByteRange.parse(Self.header(connection, "Range"), size: size)
        let (offset, length, status): (Int, Int, UInt32)
        switch range {
        case .unsatisfiable:
            Glibc.close(fd)
            return exchange.respond(connection, .invalidRange(size: size), headers: [("Content-Range", "bytes */\(size)")])
        case .whole: (offset, length, status) = (0, size, 200)
        case .part(let start, let count): (offset, length, status) = (start, count, 206)
        }
        // From the descriptor (sendfile where it can): the file never passes through memory whole.
        guard let response = MHD_create_response_from_fd_at_offset64(UInt64(length), fd, UInt64(offset)) else {
            Glibc.close(fd)
            return exchange.respond(connection, .internalError("cannot send the file"))
        }
        var headers = [("Content-Type", grant.contentType), ("Accept-Ranges", "bytes")]
        if status == 206 { headers.append(("Content-Range", "bytes \(offset)-\(offset + length - 1)/\(size)")) }
        return exchange.queue(connection, status: status, response: response, headers: headers)
    }

    static func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }

    /// The URL's query pairs, decoded, in order.
    static func queryArguments(_ connection: OpaquePointer) -> [(String, String)] {
        let box = QueryBox()
        _ = MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, { cls, _, key, value in
            guard let cls, let key else { return MHD_Result.YES }
            Unmanaged<QueryBox>.fromOpaque(cls).takeUnretainedValue().pairs.append(
                (String(cString: key), value.map { String(cString: $0) } ?? ""))
            return MHD_Result.YES
        }, Unmanaged.passUnretained(box).toOpaque())
        return box.pairs
    }
}

/// Collects query pairs from a C callback.
private final class QueryBox {
    var pairs: [(String, String)] = []
}

/// One request's state between calls of the access handler, owned through libmicrohttpd's
/// per-request pointer and released when the request ends.
final class StorageExchange {
    var receiver: UploadReceiver?
    var postProcessor: OpaquePointer?        // struct MHD_PostProcessor*
    var bodyBytes = 0
    var isDownload = false
    /// What an OPTIONS will be answered once its request is complete.
    var preflight: CORSPolicy.PreflightAnswer?
    /// Added to whatever this request is answered (the Access-Control-* headers for its Origin).
    var corsHeaders: [(String, String)] = []
    private(set) var hasResponded = false

    /// The request is over, whether answered or cut short: nothing uncommitted stays on disk.
    func end() {
        if let postProcessor { MHD_destroy_post_processor(postProcessor) }
        postProcessor = nil
        receiver?.abandon()
    }

    func respond(_ connection: OpaquePointer, _ error: StorageError, headers: [(String, String)] = []) -> MHD_Result {
        respond(connection, status: UInt32(error.status), body: Array(error.xml.utf8),
                headers: [("Content-Type", "application/xml")] + headers)
    }

    func respond(_ connection: OpaquePointer, status: Int, body: [UInt8] = [], headers: [(String, String)] = []) -> MHD_Result {
        respond(connection, status: UInt32(status), body: body, headers: headers)
    }

    private func respond(_ connection: OpaquePointer, status: UInt32, body: [UInt8], headers: [(String, String)]) -> MHD_Result {
        let response = body.withUnsafeBytes {
            MHD_create_response_from_buffer(body.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let response else { return MHD_Result.NO }
        return queue(connection, status: status, response: response, headers: headers)
    }

    /// Queues `response` (adding `headers` and the CORS ones) and releases our reference to it.
    func queue(_ connection: OpaquePointer, status: UInt32, response: OpaquePointer, headers: [(String, String)]) -> MHD_Result {
        for (name, value) in headers + corsHeaders { MHD_add_response_header(response, name, value) }
        hasResponded = true
        let result = MHD_queue_response(connection, status, response)
        MHD_destroy_response(response)
        return result
    }
}

@available(*, unavailable) extension StorageExchange: Sendable {}

/// libmicrohttpd's access handler: a request's headers, then each piece of its body, then its end.
private let storageAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, data, size, state in
    guard let cls, let connection, let url, let method, let size, let state else { return MHD_Result.NO }
    let handler = Unmanaged<StorageRequestHandler>.fromOpaque(cls).takeUnretainedValue()
    let exchange: StorageExchange
    let isFirstCall = state.pointee == nil
    if let existing = state.pointee {
        exchange = Unmanaged<StorageExchange>.fromOpaque(existing).takeUnretainedValue()
    } else {
        exchange = StorageExchange()
        state.pointee = Unmanaged.passRetained(exchange).toOpaque()
    }
    return handler.handle(connection, path: String(cString: url), method: String(cString: method),
                          data: data, size: size, exchange: exchange, isFirstCall: isFirstCall)
}

/// Called once per request however it ended (answered, the client gone, the server stopping).
private let storageRequestCompleted: MHD_RequestCompletedCallback = { cls, connection, state, _ in
    if let cls, let connection {
        Unmanaged<StorageRequestHandler>.fromOpaque(cls).takeUnretainedValue().connectionWaits(connection)
    }
    guard let state, let raw = state.pointee else { return }
    state.pointee = nil
    Unmanaged<StorageExchange>.fromOpaque(raw).takeRetainedValue().end()
}

/// The multipart parser's callback: one piece of one field.
private let storageFormField: MHD_PostDataIterator = { cls, _, key, _, _, _, data, offset, size in
    guard let cls, let key else { return MHD_Result.NO }
    let receiver = Unmanaged<UploadReceiver>.fromOpaque(cls).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    return receiver.receive(name: String(cString: key), offset: offset, bytes: bytes) ? MHD_Result.YES : MHD_Result.NO
}

/// libmicrohttpd's word that a connection began or ended: each is counted against the cap on
/// connections waiting for a request.
private let storageConnectionNotice: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let handler = Unmanaged<StorageRequestHandler>.fromOpaque(cls).takeUnretainedValue()
    if code.rawValue == 0 {   // MHD_CONNECTION_NOTIFY_STARTED
        handler.connectionWaits(connection, socket: sandbox_mhd_connection_socket(connection))
    } else {
        handler.connectionClosed(connection)
    }
}
