// libwebsockets behind the sandbox's XMPP-over-WebSocket port. Every lws call lives here.
internal import CWebSockets
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import SandboxClock
import SandboxHTTP
import SandboxLogging
import Threads

/// Listens for XMPP over WebSocket (RFC 7395, subprotocol `xmpp`) and moves whole
/// messages between the sockets and a `WebSocketMailbox`; the XMPP streams themselves
/// live on the sandbox's event loop (`XMPPServer`, `XMPPClientConnection` in SandboxXMPP).
///
/// Debian's libwebsockets 4.1 has no libevent event-loop plugin (only libev, libuv,
/// glib) and no external-poll support, so it runs its own poll loop on one dedicated
/// thread that never touches the event loop: the mailbox is the only thing they share.
///
/// Create, use and release it on the event loop's thread; `wake()` nudges the
/// WebSocket thread after output was queued.
package final class WebSocketListener {
    /// The port actually bound (after asking for 0).
    package let boundPort: Int
    package let mailbox: WebSocketMailbox
    private let service: WebSocketService
    private var context: OpaquePointer?          // struct lws_context*
    private var thread: WorkerThread<Never>?
    /// lws keeps pointers to the protocol table, its names and the interface string.
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private let cStrings: [UnsafeMutablePointer<CChar>]

    /// `host` is a numeric address or a name that resolves to one.
    /// `upgradeTimeout`: seconds a client may take over the HTTP upgrade, or sit idle before sending one.
    /// `origins`: the web pages whose upgrades are taken (a browser sends its page's `Origin`;
    /// WebSockets have no CORS, the server checks it). `tls`: serve `wss://` (libwebsockets' OpenSSL).
    /// `maximumWaiting`: connections per address (and all together) not upgraded yet.
    package init(host: String, port: Int, maxMessageBytes: Int, upgradeTimeout: Int, origins: CORSOrigins = .any,
                 tls: TLSCredentials? = nil, maximumWaiting: (perAddress: Int, overall: Int) = (32, 512),
                 log: SandboxLog) throws(SandboxFailure) {
        let address = try Self.numericAddress(host)
        mailbox = try WebSocketMailbox()
        service = WebSocketService(mailbox: mailbox, maxMessageBytes: maxMessageBytes, origins: origins, log: log)
        service.waiting = WaitingUpgrades(perAddress: maximumWaiting.perAddress, overall: maximumWaiting.overall, log: log)
        WebSocketService.libraryLog.withLock { $0 = log }
        lws_set_log_level(Int32(LLL_ERR | LLL_WARN | LLL_NOTICE), libwebsocketsLogLine)

        let httpName = strdup("http-only")!, xmppName = strdup("xmpp")!, interface = strdup(address)!, alpn = strdup("http/1.1")!
        // lws reads the certificate and key while it makes the vhost; they live as long as we do anyway.
        let certificate = tls.map { strdup($0.certificatePEM)! }, key = tls.map { strdup($0.keyPEM)! }
        cStrings = [httpName, xmppName, interface, alpn] + [certificate, key].compactMap { $0 }
        protocols = .allocate(capacity: 3)
        protocols.initialize(repeating: lws_protocols(), count: 3)
        // Index 0 is where plain HTTP and upgrades without a subprotocol land.
        protocols[0].name = UnsafePointer(httpName)
        protocols[0].callback = httpCallback
        protocols[1].name = UnsafePointer(xmppName)
        protocols[1].callback = xmppCallback
        protocols[1].per_session_data_size = MemoryLayout<Int>.size
        protocols[1].rx_buffer_size = 64 * 1024

        var info = lws_context_creation_info()
        info.options = UInt64(LWS_SERVER_OPTION_EXPLICIT_VHOSTS) | (tls == nil ? 0 : UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT))
        info.gid = -1
        info.uid = -1
        info.user = Unmanaged.passUnretained(service).toOpaque()
        // lws sizes per-fd tables by this; the process limit may be a million.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        info.fd_limit_per_thread = UInt32(clamping: min(UInt64(limit.rlim_cur), 65536))
        guard let context = lws_create_context(&info) else {
            Self.release(protocols, cStrings)
            throw SandboxFailure("cannot start the WebSocket listener (lws_create_context failed)")
        }
        var vhostInfo = lws_context_creation_info()
        vhostInfo.iface = UnsafePointer(interface)
        vhostInfo.port = Int32(port)
        vhostInfo.protocols = UnsafePointer(protocols)
        vhostInfo.options = UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
            | (address.contains(":") ? 0 : UInt64(LWS_SERVER_OPTION_DISABLE_IPV6))
        vhostInfo.timeout_secs = UInt32(max(1, upgradeTimeout))
        // A client that connects and sends nothing holds an "ah" (header buffer) idle: 10 s unless set.
        vhostInfo.timeout_secs_ah_idle = UInt32(max(1, upgradeTimeout))
        vhostInfo.keepalive_timeout = Int32(max(1, upgradeTimeout))
        if let certificate, let key {
            // lws reads this option from each vhost's info too: without it the vhost stays plain.
            vhostInfo.options |= UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT)
            // RFC 7395's upgrade is HTTP/1.1's: no h2 offered in TLS's ALPN.
            vhostInfo.alpn = UnsafePointer(alpn)
            // Lengths with the terminating NUL: lws then takes the buffers as PEM text.
            vhostInfo.server_ssl_cert_mem = UnsafeRawPointer(certificate)
            vhostInfo.server_ssl_cert_mem_len = UInt32(strlen(certificate) + 1)
            vhostInfo.server_ssl_private_key_mem = UnsafeRawPointer(key)
            vhostInfo.server_ssl_private_key_mem_len = UInt32(strlen(key) + 1)
        }
        guard let vhost = lws_create_vhost(context, &vhostInfo) else {
            lws_context_destroy(context)
            Self.release(protocols, cStrings)
            throw SandboxFailure("cannot listen for XMPP over WebSocket on \(host):\(port)\(tls == nil ? "" : " with TLS")")
        }
        boundPort = Int(lws_get_vhost_listen_port(vhost))
        self.context = context
        service.context = context

        // The service is the WebSocket thread's alone from here on.
        let handed = Handover(service)
        guard let thread = WorkerThread<Never>.start({ _ in handed.value.run() }) else {
            lws_context_destroy(context)
            self.context = nil
            Self.release(protocols, cStrings)
            throw SandboxFailure("cannot start the WebSocket thread")
        }
        self.thread = thread
        log.log(.info, "xmpp: listening for WebSocket (RFC 7395\(tls == nil ? "" : ", TLS")) on \(host):\(boundPort)")
    }

    deinit {
        stop()
        Self.release(protocols, cStrings)
    }

    /// Has the WebSocket thread look at the mailbox (thread-safe: `lws_cancel_service`).
    package func wake() {
        if let context { lws_cancel_service(context) }
    }

    /// Stops the WebSocket thread after it has flushed what is queued (at most half
    /// a second), then closes every WebSocket and the listening socket. Idempotent.
    package func stop() {
        guard let context else { return }
        mailbox.beginStopping()
        lws_cancel_service(context)
        thread?.join()
        thread = nil
        lws_context_destroy(context)
        self.context = nil
    }

    private static func release(_ protocols: UnsafeMutablePointer<lws_protocols>, _ strings: [UnsafeMutablePointer<CChar>]) {
        protocols.deinitialize(count: 3)
        protocols.deallocate()
        strings.forEach { free($0) }
    }

    /// lws binds to an interface name or a numeric address, not a host name.
    private static func numericAddress(_ host: String) throws(SandboxFailure) -> String {
        var hints = addrinfo()  // any socket type: only the numeric address is wanted
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, nil, &hints, &found)
        guard status == 0, let first = found else {
            throw SandboxFailure("cannot resolve WebSocket host \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(first.pointee.ai_addr, first.pointee.ai_addrlen, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST) == 0 else {
            throw SandboxFailure("cannot resolve WebSocket host \(host)")
        }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

@available(*, unavailable) extension WebSocketListener: Sendable {}

/// The WebSocket thread's side: every callback of libwebsockets arrives here, on that
/// thread (and, while the context is created and destroyed, on the loop thread, when
/// the WebSocket thread is not running).
final class WebSocketService {
    /// libwebsockets' own log lines go here; its log hook has no user pointer.
    static let libraryLog = Mutex<SandboxLog?>(nil)

    let mailbox: WebSocketMailbox
    let maxMessageBytes: Int
    let origins: CORSOrigins
    let log: SandboxLog
    fileprivate var context: OpaquePointer?
    private var nextId = 0
    /// Open WebSockets by id (`struct lws*`), and what each has received of its current message.
    private var sockets: [Int: OpaquePointer] = [:]
    private var partial: [Int: [UInt8]] = [:]
    private var oversized: Set<Int> = []
    /// Why a WebSocket is closing, for the `.closed` event.
    private var closeReasons: [Int: String] = [:]
    /// Connections not upgraded yet, capped per address.
    var waiting: WaitingUpgrades?

    init(mailbox: WebSocketMailbox, maxMessageBytes: Int, origins: CORSOrigins, log: SandboxLog) {
        self.mailbox = mailbox
        self.maxMessageBytes = maxMessageBytes
        self.origins = origins
        self.log = log
    }

    /// The thread's body: service until asked to stop, then flush the goodbyes.
    fileprivate func run() {
        guard let context else { return }
        while !mailbox.isStopping { lws_service(context, 0) }
        // Queued output (system-shutdown errors, closes) for up to half a second.
        let deadline = SandboxTime.monotonic() + 0.5
        while !mailbox.connectionsWithOutput().isEmpty && SandboxTime.monotonic() < deadline {
            requestWrites()
            lws_service(context, -1)  // negative: poll without waiting
            usleep(2000)
        }
    }

    private func requestWrites() {
        for id in mailbox.connectionsWithOutput() {
            if let socket = sockets[id] { lws_callback_on_writable(socket) } else { mailbox.forget(id) }
        }
    }

    // MARK: protocol "http-only" (index 0)

    fileprivate func http(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                          _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            let upgrade = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            let offered = Self.header(wsi, WSI_TOKEN_PROTOCOL)
            let names = offered.split(separator: ",").map { $0.trimmed(of: " \t") }
            guard upgrade.lowercased() == "websocket", names.contains("xmpp") else {
                let what = upgrade.lowercased() == "websocket" ? "no 'xmpp' subprotocol (offered: \(offered.isEmpty ? "none" : offered))" : "an upgrade to '\(upgrade)'"
                log.log(.info, "ws: refused a connection from \(Self.peer(wsi)): \(what)")
                // >0: we answered ourselves; lws ends the transaction.
                return lws_return_http_status(wsi, UInt32(HTTP_STATUS_BAD_REQUEST.rawValue),
                                              "XMPP over WebSocket needs the subprotocol xmpp (RFC 7395)") == 0 ? 1 : -1
            }
            // By default any Origin is welcome (pages opened from file:// send "null" or "file://");
            // with --cors-origin only those named. A client that is no browser sends none.
            let origin = Self.header(wsi, WSI_TOKEN_ORIGIN)
            if !origin.isEmpty && !origins.allows(origin) {
                log.log(.info, "ws: refused a connection from \(Self.peer(wsi)): origin \(CORSPolicy.printable(origin)) is not allowed (--cors-origin)")
                return lws_return_http_status(wsi, UInt32(HTTP_STATUS_FORBIDDEN.rawValue),
                                              "this origin may not use the sandbox (chatctl-sandbox --cors-origin)") == 0 ? 1 : -1
            }
            log.log(.debug, "ws: upgrade from \(Self.peer(wsi)), origin \(CORSPolicy.printable(origin))")
            return 0
        case LWS_CALLBACK_HTTP:
            log.log(.debug, "ws: plain HTTP request from \(Self.peer(wsi)) refused")
            if lws_return_http_status(wsi, UInt32(HTTP_STATUS_BAD_REQUEST.rawValue), "this port serves XMPP over WebSocket only (RFC 7395)") != 0 {
                return -1
            }
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED, LWS_CALLBACK_WSI_DESTROY:
            if reason == LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED { waiting?.accepted(wsi) } else { waiting?.left(wsi) }
            fallthrough
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    // MARK: protocol "xmpp"

    fileprivate func xmpp(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                          _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let slot = user?.assumingMemoryBound(to: Int.self)
        let id = slot?.pointee ?? 0
        switch reason {
        case LWS_CALLBACK_ESTABLISHED:
            waiting?.left(wsi)
            nextId += 1
            slot?.pointee = nextId
            sockets[nextId] = wsi
            mailbox.post(.opened(id: nextId, peer: Self.peer(wsi)))
        case LWS_CALLBACK_RECEIVE where id != 0:
            if lws_frame_is_binary(wsi) != 0 {
                return close(wsi, id, code: LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, reason: "binary frame (RFC 7395 carries XML in text frames)")
            }
            if !oversized.contains(id), let input {
                partial[id, default: []].append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
                if partial[id]!.count > maxMessageBytes {
                    oversized.insert(id)
                    partial[id] = nil
                }
            }
            if lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0 {
                if oversized.remove(id) != nil {
                    mailbox.post(.oversized(id: id))
                } else {
                    mailbox.post(.message(id: id, partial.removeValue(forKey: id) ?? []))
                }
            }
        case LWS_CALLBACK_SERVER_WRITEABLE where id != 0:
            let (output, more) = mailbox.nextOutput(for: id)
            switch output {
            case .message(let bytes):
                var frame = [UInt8](repeating: 0, count: lws_pre_padding + bytes.count)
                frame.replaceSubrange(lws_pre_padding..., with: bytes)
                let written = frame.withUnsafeMutableBufferPointer {
                    lws_write(wsi, $0.baseAddress! + lws_pre_padding, bytes.count, LWS_WRITE_TEXT)
                }
                if written < bytes.count {
                    closeReasons[id] = "writing to the WebSocket failed"
                    return -1
                }
                if more { lws_callback_on_writable(wsi) }
            case .close(let code, let text):
                return close(wsi, id, code: lws_close_status(rawValue: UInt32(code)), reason: text)
            case .nothing:
                break
            }
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE where id != 0:
            var code = 0
            if let bytes = input?.assumingMemoryBound(to: UInt8.self), length >= 2 { code = Int(bytes[0]) << 8 | Int(bytes[1]) }
            if closeReasons[id] == nil { closeReasons[id] = "the client closed the WebSocket (code \(code))" }
        case LWS_CALLBACK_CLOSED where id != 0:
            sockets[id] = nil
            partial[id] = nil
            oversized.remove(id)
            mailbox.forget(id)
            mailbox.post(.closed(id: id, reason: closeReasons.removeValue(forKey: id) ?? "connection lost"))
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            requestWrites()
        default:
            break
        }
        return 0
    }

    /// Sends a close frame with `code` and `reason`, then drops the connection.
    private func close(_ wsi: OpaquePointer, _ id: Int, code: lws_close_status, reason: String) -> Int32 {
        if closeReasons[id] == nil { closeReasons[id] = reason }
        var text = Array(reason.utf8.prefix(120))  // a close frame's payload is at most 125 bytes
        lws_close_reason(wsi, code, &text, text.count)
        return -1
    }

    private static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return "" }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func peer(_ wsi: OpaquePointer) -> String {
        var name = [CChar](repeating: 0, count: 64)
        guard lws_get_peer_simple(wsi, &name, name.count) != nil else { return "?" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

@available(*, unavailable) extension WebSocketService: Sendable {}

private func service(of wsi: OpaquePointer?) -> WebSocketService? {
    guard let wsi, let context = lws_get_context(wsi), let user = lws_context_user(context) else { return nil }
    return Unmanaged<WebSocketService>.fromOpaque(user).takeUnretainedValue()
}

private func httpCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                          _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let service = service(of: wsi) else { return 0 }
    return service.http(wsi, reason, user, input, length)
}

private func xmppCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                          _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let service = service(of: wsi) else { return 0 }
    return service.xmpp(wsi, reason, user, input, length)
}

/// libwebsockets' log: errors and warnings as warnings, its notices only at debug.
private func libwebsocketsLogLine(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line, let log = WebSocketService.libraryLog.withLock({ $0 }) else { return }
    let text = String(cString: line).trimmed(of: " \n\r\t")
    log.log(level & Int32(LLL_ERR | LLL_WARN) != 0 ? .warning : .debug, "ws: libwebsockets: \(text)")
}

private extension StringProtocol {
    func trimmed(of set: String) -> String {
        let scalars = Array(unicodeScalars)
        let skip = Set(set.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !skip.contains($0) }),
              let last = scalars.lastIndex(where: { !skip.contains($0) }) else { return "" }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
    }
}
